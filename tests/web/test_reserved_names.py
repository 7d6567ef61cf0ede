"""Bot accounts are found by their flag; a person cannot take a bot's or the house's name."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

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
