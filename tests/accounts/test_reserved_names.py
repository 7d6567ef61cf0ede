"""Bot accounts are found by their flag; a person cannot take a bot's or the house's name."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import lxml.html
import pytest
from django.apps import apps as django_apps
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from accounts.forms import SignUpForm
from accounts.models import HeldName, User
from games import services
from games.models import Game

# backend: names unique whatever their case: a database constraint.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]

PASSWORD = "crusty-loaf-1987"


def sign_up(name: str) -> tuple[int, str]:
    """Post the sign-up form; the status and the page."""
    response = Client().post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    return response.status_code, response.content.decode()


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("lookahead-bot-1", "kept for the house bots"),
        ("Greedy-Bot-12", "kept for the house bots"),
        ("pastry-bot-3", "kept for the house bots"),
        (".", "only dots"),
        ("..", "only dots"),
        ("Night_Owl", "kept for the house"),
    ],
)
def test_signup_refuses_a_reserved_or_link_breaking_name(name: str, says: str) -> None:
    status, page = sign_up(name)
    assert status == 200
    assert says in page
    assert not User.objects.filter(username=name).exists()


@pytest.mark.parametrize("name", ["robot-7", "bot-fan", "dot.baker", "owlet"])
def test_signup_takes_names_that_only_look_alike(name: str) -> None:
    status, _ = sign_up(name)
    assert status == 302
    person = User.objects.get(username=name)
    assert not person.is_bot
    assert Client().get(f"/u/{name}/").status_code == 200


def test_a_person_named_like_a_bot_is_never_seated_as_the_bot(open_table: Game) -> None:
    squatter = User.objects.create_user(username="greedy-bot-1", password=PASSWORD)
    seat = services.add_bot(open_table, open_table.host, "greedy")
    squatter.refresh_from_db()
    assert seat.user_id != squatter.pk
    assert seat.user.is_bot and seat.user.username == "greedy-bot-2"
    assert not squatter.is_bot and squatter.check_password(PASSWORD)
    assert not open_table.seats.filter(user=squatter).exists()


def test_bot_accounts_are_reused_and_never_have_a_password(player: User, rival: User) -> None:
    first = services.create_game(player, "midnight-bakery", 3)
    second = services.create_game(rival, "midnight-bakery", 3)
    a = services.add_bot(first, player, "greedy").user
    b = services.add_bot(first, player, "greedy").user
    c = services.add_bot(second, rival, "greedy").user
    assert [a.username, b.username, c.username] == ["greedy-bot-1", "greedy-bot-2", "greedy-bot-1"]
    assert all(u.is_bot and not u.has_usable_password() for u in (a, b, c))


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("\u0430lice", "may not mix alphabets"),  # a Cyrillic a, then Latin
        ("Anna_\u0410\u043d\u043d\u0430", "may not mix alphabets"),  # Latin and Cyrillic
        ("\u0440\u0430\u0443pal", "may not mix alphabets"),  # Cyrillic "pay", Latin "pal"
        ("\u0430\u0441\u0435", "looks too much like “ace”"),  # all Cyrillic, it reads "ace"
        ("a1ice", "looks too much like “alice”"),
        ("ALICE", "already exists"),  # Django's own check, case aside
    ],
)
def test_signup_refuses_a_name_that_passes_for_another(
    name: str, says: str, make_user: Callable[[str], User]
) -> None:
    make_user("alice")
    make_user("ace")
    status, page = sign_up(name)
    assert status == 200
    assert says in page
    assert not User.objects.filter(username=name).exists()


@pytest.mark.parametrize(
    "name",
    [
        "\u0410\u043d\u043d\u0430",  # Anna in Cyrillic: its H-like letters pass for no Latin n
        "\u7530\u4e2d\u3055\u3093",  # Han and Hiragana, as Japanese names are written
        "taro\u592a\u90ce",  # Latin with Han
        "\u00c9lodie",
        "alicia",
    ],
)
def test_signup_takes_a_name_in_one_alphabet_that_passes_for_nobody(
    name: str, make_user: Callable[[str], User]
) -> None:
    make_user("alice")
    make_user("anna")
    status, page = sign_up(name)
    assert status == 302, page
    assert User.objects.filter(username=name).exists()


def test_an_existing_look_alike_name_is_taken_however_it_was_written(
    make_user: Callable[[str], User],
) -> None:
    make_user("\u0430\u0441\u0435")  # all Cyrillic, made before the rule
    status, page = sign_up("ace")
    assert status == 200 and "looks too much like" in page


def test_admin_refuses_a_look_alike_name_and_keeps_an_old_one(
    make_user: Callable[[str], User],
) -> None:
    make_user("alice")
    legacy = make_user("b\u043eb")  # Latin b, Cyrillic o, Latin b: from before the rule
    admin = User.objects.create_superuser("root", "root@example.com", PASSWORD)
    client = Client()
    client.force_login(admin)
    added = client.post(
        "/admin/accounts/user/add/",
        {"username": "\u0430lice", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert added.status_code == 200
    assert "may not mix alphabets" in added.content.decode()
    assert not User.objects.filter(username="\u0430lice").exists()
    change = f"/admin/accounts/user/{legacy.pk}/change/"
    renamed = client.post(change, change_form(client, change, username="a1ice"))
    assert renamed.status_code == 200
    assert "looks too much like “alice”" in renamed.content.decode()
    kept = client.post(change, change_form(client, change, first_name="Bob"))
    assert kept.status_code == 302  # an edit that keeps an old name is not refused for it
    legacy.refresh_from_db()
    assert (legacy.username, legacy.first_name) == ("b\u043eb", "Bob")


def change_form(client: Client, url: str, **changes: str) -> dict[str, str]:
    """What the admin's change form would post as it stands, with these fields changed."""
    page = lxml.html.fromstring(client.get(url).content.decode())
    form = next(f for f in page.forms if f.get("id") == "user_form")
    return {**dict(form.form_values()), **changes}


@pytest.mark.parametrize(
    "name",
    [
        "demo_bri0che",
        "demo_brioche_",
        "Demo.Brioche",
        "demo-br1oche",
        "dem0_8rioche",
        "demobrioche",
    ],
)
def test_signup_refuses_digits_for_letters_and_added_separators(
    name: str, make_user: Callable[[str], User]
) -> None:
    make_user("demo_brioche")
    status, page = sign_up(name)
    assert status == 200
    assert "That name looks too much like “demo_brioche”, a name already taken." in page
    assert not User.objects.filter(username=name).exists()


@pytest.mark.parametrize(
    ("name", "says"),
    [("N1ght_0wl", "kept for the house"), ("greedy_b0t_1", "kept for the house bots")],
)
def test_signup_refuses_a_look_alike_of_a_kept_name(name: str, says: str) -> None:
    status, page = sign_up(name)
    assert status == 200 and says in page
    assert not User.objects.filter(username=name).exists()


def test_signup_refuses_a_look_alike_of_a_held_name() -> None:
    HeldName.hold("demo_brioche")
    status, page = sign_up("demo.bri0che")
    assert status == 200
    assert "looks too much like “demo_brioche”, which belonged to a deleted account" in page
    assert not User.objects.filter(username="demo.bri0che").exists()


def test_the_database_refuses_a_second_account_with_the_same_skeleton(
    make_user: Callable[[str], User],
) -> None:
    make_user("demo_brioche")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="demo_bri0che", password=PASSWORD)
    assert list(User.objects.values_list("username", flat=True)) == ["demo_brioche"]


def test_a_sign_up_that_loses_the_race_for_a_look_alike_is_told_and_changes_nothing(
    make_user: Callable[[str], User], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_user("demo_brioche")
    # The form was checked before the other sign-up committed: only the unique index sees it.
    monkeypatch.setattr(User, "clean", lambda self: None)
    status, page = sign_up("demo_bri0che")
    assert status == 200
    assert "That name looks too much like “demo_brioche”, a name already taken." in page
    assert not User.objects.filter(username="demo_bri0che").exists()


def test_the_migration_keeps_old_look_alikes_and_a_full_save_of_one_still_works(
    make_user: Callable[[str], User],
) -> None:
    older, later = make_user("demo_brioche"), make_user("other")
    User.objects.filter(pk=later.pk).update(username="demo_bri0che", name_skeleton="x")
    HeldName.objects.create(name="Held_Name", free_at=timezone.now(), name_skeleton="")
    migration = importlib.import_module("accounts.migrations.0016_unique_name_skeleton")
    migration.skeletons_again(django_apps, None)
    skeletons = dict(User.objects.values_list("pk", "name_skeleton"))
    assert skeletons == {older.pk: "demobrloche", later.pk: None}
    assert HeldName.objects.get().name_skeleton == "heldname"
    kept = User.objects.get(pk=later.pk)
    kept.first_name = "Bri"
    kept.save()  # a whole save that keeps the name keeps it without a skeleton
    assert User.objects.get(pk=later.pk).name_skeleton is None


def test_a_sign_up_that_loses_the_race_for_the_same_name_is_told_so(
    make_user: Callable[[str], User], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_user("demo_brioche")
    # Both forms were checked before either account was made.
    monkeypatch.setattr(SignUpForm, "clean_username", lambda form: form.cleaned_data["username"])
    monkeypatch.setattr(User, "clean", lambda self: None)
    status, page = sign_up("Demo_Brioche")
    assert status == 200
    assert "Someone took the name “demo_brioche” a moment ago." in page
    assert User.objects.count() == 1
