"""Your account is yours: 'Download my data' and 'Delete my account' (issue 31, point 5)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import MAIL_KINDS, HeldName, Rating, RatingPoint, User, deleted_name
from games import services
from games.models import ChatMessage, Game
from games.services import presence
from tests.conftest import client_for
from tests.support.finished_games import finished_game
from tests.support.sockets import at_table

# backend: deletion and changes cascade in the database.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]

PASSWORD = "a-long-baking-secret"


def batch(game: Game, user: User) -> list[str]:
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    return [c["id"] for c in engine.view(engine.load(game.snapshot), position)["batch"]]


def my_data(user: User) -> dict[str, Any]:
    response = client_for(user).get("/accounts/settings/data.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data: dict[str, Any] = json.loads(response.content)
    return data


def sign_up(name: str) -> Any:
    return Client().post(
        "/accounts/signup/",
        {"username": name, "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )


def test_settings_link_the_download_and_the_deletion(player: User) -> None:
    page = client_for(player).get("/accounts/settings/").text
    assert "/accounts/settings/data.json" in page and "/accounts/settings/delete/" in page
    assert Client().get("/accounts/settings/data.json").status_code == 302  # log in first


def test_the_download_holds_every_finished_game_and_the_ratings(
    player: User, rival: User, outsider: User
) -> None:
    mine = [finished_game([player, rival]), finished_game([player], kind="cakehalla")]
    theirs = finished_game([rival, outsider])
    data = my_data(player)

    assert data["profile"]["username"] == "alice"
    assert data["profile"]["settings"] == {
        "move_sound": False,
        "mail_turn": False,
        "mail_invite": False,
        "mail_rematch": False,
        "mail_ended": False,
        "mail_friend": False,
        "mail_tournament": False,
    }
    assert [g["id"] for g in data["games"]] == [g.pk for g in mine]
    assert theirs.pk not in [g["id"] for g in data["games"]]
    export = client_for(player).get(f"/games/{mine[0].pk}/export.json").json()
    assert data["games"][0] == export  # the game's own export, nothing more
    rated = {r["game"]: r for r in data["ratings"]}
    assert set(rated) == {"midnight-bakery", "cakehalla"}
    assert [p["game_id"] for p in rated["midnight-bakery"]["history"]] == [mine[0].pk]
    current = Rating.objects.get(user=player, kind="midnight-bakery").rating
    assert rated["midnight-bakery"]["rating"] == current


def test_the_download_holds_the_inbox_and_the_vacations_and_nobody_elses(
    player: User, rival: User
) -> None:
    from games.events import invited
    from games.vacation.services import take_vacation

    table = services.create_game(rival, "cakehalla", 2)
    invited.send(Game, game_id=table.pk, by=rival.pk, to=player.pk)
    invited.send(Game, game_id=table.pk, by=player.pk, to=rival.pk)  # the host: not told
    other = services.create_game(player, "cakehalla", 2)
    invited.send(Game, game_id=other.pk, by=player.pk, to=rival.pk)  # rival's, not alice's
    start = timezone.now() + timedelta(days=2)
    take_vacation(player, start.date(), 3)
    data = my_data(player)
    assert [(n["kind"], n["text"], n["read_at"]) for n in data["notifications"]] == [
        ("invite", f"bob invites you to {table}.", None)
    ]
    assert [v["days"] for v in data["vacations"]] == [3]


def test_the_download_lists_a_running_game_without_its_state(
    player: User, rival: User, running_game: Game
) -> None:
    services.chat.say(running_game, player, "my own line")
    data = my_data(player)
    assert data["games"] == []
    assert data["other_tables"] == [
        {
            "id": running_game.pk,
            "game": "midnight-bakery",
            "status": "running",
            "created_at": running_game.created_at.isoformat(),
            "seat": running_game.seats.get(user=player).name,
        }
    ]
    assert [c["text"] for c in data["chat"]] == ["my own line"]
    # Nobody's hidden information: not the rival's batch, nor the seed or the snapshot (nor,
    # while the game runs, even the person's own batch).
    body = json.dumps(data)
    secrets = [*batch(running_game, rival), *batch(running_game, player)]
    assert not [s for s in secrets if s in body]
    assert str(running_game.seed) not in body and "snapshot" not in body


def test_a_wrong_password_deletes_nothing(player: User, rival: User, running_game: Game) -> None:
    finished_game([player, rival])
    services.chat.say(running_game, rival, "good luck")
    response = client_for(rival).post("/accounts/settings/delete/", {"password": "not it"})
    assert response.status_code == 400 and "That is not your password" in response.text
    rival.refresh_from_db()
    assert rival.username == "bob" and rival.is_active and rival.deleted_at is None
    assert rival.check_password(PASSWORD)
    assert not running_game.seats.get(user=rival).bot
    assert ChatMessage.objects.filter(author=rival).exists()
    assert Rating.objects.filter(user=rival).exists()
    assert not HeldName.objects.exists()


def test_the_password_may_be_tried_five_times_an_hour(rival: User) -> None:
    client = client_for(rival)
    for _ in range(5):
        response = client.post("/accounts/settings/delete/", {"password": "not it"})
        assert "That is not your password" in response.text
    response = client.post("/accounts/settings/delete/", {"password": PASSWORD})
    assert response.status_code == 400 and "Too many tries: wait an hour" in response.text
    rival.refresh_from_db()
    assert rival.is_active and rival.deleted_at is None


def test_deleting_mid_game_hands_the_seat_to_a_bot_and_keeps_finished_results(
    player: User, rival: User, running_game: Game
) -> None:
    done = finished_game([player, rival])
    results = {s.pk: (s.score, s.place, s.winner) for s in done.seats.all()}
    services.chat.say(running_game, rival, "good luck")
    services.chat.say(running_game, player, "you too")
    player_rating = Rating.objects.get(user=player, kind="midnight-bakery").rating
    hidden = batch(running_game, rival)

    User.objects.filter(pk=rival.pk).update(**{f"mail_{kind}": True for kind in MAIL_KINDS})
    services.chat.mute(rival, player, running_game.pk)
    bob = client_for(rival)
    response = bob.post("/accounts/settings/delete/", {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    assert bob.get("/accounts/settings/").status_code == 302  # logged out

    gone = User.objects.get(pk=rival.pk)
    name = deleted_name(rival.pk)
    assert gone.username == name == f"a deleted baker #{rival.pk}"
    assert not gone.is_active and gone.deleted_at is not None and not gone.has_usable_password()
    assert not [kind for kind in MAIL_KINDS if getattr(gone, f"mail_{kind}")]  # no mail choice kept
    assert not gone.muted_someone  # nor that they muted someone: their mutes went
    login = Client().post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    assert login.status_code == 200  # refused: the form again

    # The running game goes on with a house bot in the seat, and says why.
    running_game.refresh_from_db()
    seat = running_game.seats.get(user=gone)
    assert seat.bot and seat.resigned and seat.handed_over == services.DELETED
    assert running_game.notices[-1]["text"].startswith("A baker left Bakehouse: a ")
    state = running_game.spec.engine.load(running_game.snapshot)
    assert seat.position not in running_game.spec.engine.active_seats(state)
    assert running_game.status == Game.Status.RUNNING
    assert set(batch(running_game, gone)) == set(hidden)  # the bot plays the same hand

    # The finished game's scores and places stand; its pages show the deleted name.
    assert {s.pk: (s.score, s.place, s.winner) for s in done.seats.all()} == results
    alice = client_for(player)
    for url in ("/games/history/", f"/u/{player.username}/", f"/games/{done.pk}/export.json"):
        page = alice.get(url).content.decode()
        assert "bob" not in page, url
    assert "a deleted baker #" in alice.get("/games/history/").text
    assert [s["player"] for s in alice.get(f"/games/{done.pk}/export.json").json()["seats"]]
    profile = alice.get(f"/u/{name}/".replace("#", "%23"))
    assert profile.status_code == 200 and name in profile.text

    # Chat lines and ratings go; everyone else's stay as they were.
    assert not ChatMessage.objects.filter(author=gone).exists()
    assert ChatMessage.objects.filter(author=player, text="you too").exists()
    assert not Rating.objects.filter(user=gone).exists()
    assert not RatingPoint.objects.filter(user=gone).exists()
    assert Rating.objects.get(user=player, kind="midnight-bakery").rating == player_rating


def test_a_deleted_persons_seat_reads_plainly_with_no_presence(
    running_game: Game, player: User, rival: User
) -> None:
    channel = at_table(running_game, rival)
    presence.closed(channel, running_game.pk)  # bob's tab closed a moment ago: "reconnecting"
    services.delete_account(rival, PASSWORD)
    assert_plain_seat(running_game, player, rival)
    assert "A baker left Bakehouse: a " in running_game_notices(running_game)


def test_a_seat_left_before_the_account_was_deleted_reads_plainly_too(
    running_game: Game, player: User, rival: User
) -> None:
    services.resign(running_game, rival)  # "bob left: a ... bot plays ..."
    channel = at_table(running_game, rival)
    presence.closed(channel, running_game.pk)
    services.delete_account(rival, PASSWORD)
    assert_plain_seat(running_game, player, rival)
    assert "a deleted baker left: a " in running_game_notices(running_game)


def running_game_notices(game: Game) -> str:
    game.refresh_from_db()
    return " ".join(n["text"] for n in game.notices)


def assert_plain_seat(game: Game, viewer: User, deleted: User) -> None:
    """The table shows the deleted person's seat as "a deleted baker", with no presence and
    no number, and says a bot plays it because they left Bakehouse."""
    page = client_for(viewer).get(game.get_absolute_url()).content.decode()
    table = page.split('id="region-table"', 1)[1].split("</section>", 1)[0]
    seat = next(s for s in table.split('<li class="table-seat') if "a deleted baker" in s)
    assert '<span class="player">a deleted baker</span>' in seat
    assert "left Bakehouse: a greedy bot plays" in seat
    assert "reconnecting" not in seat and "away" not in seat and "#" not in seat
    assert "account was deleted" not in table and f"#{deleted.pk}" not in table


def test_deleting_cancels_the_open_tables_it_hosts_and_leaves_the_others(
    player: User, rival: User
) -> None:
    hosted = services.create_game(rival, "midnight-bakery", 3)
    elsewhere = services.create_game(player, "cakehalla", 3)
    services.join(elsewhere, rival)
    services.delete_account(rival, PASSWORD)
    hosted.refresh_from_db()
    assert hosted.status == Game.Status.CANCELLED
    assert not elsewhere.seats.filter(user=rival).exists()


def test_the_name_is_free_again_after_30_days(rival: User) -> None:
    services.delete_account(rival, PASSWORD)
    for name in ("bob", "BOB"):
        refused = sign_up(name)
        assert refused.status_code == 200
        assert "That name belonged to a deleted account; it is free again on" in refused.text
    assert not User.objects.filter(username__iexact="bob").exists()
    held = HeldName.objects.get(name="bob")
    free_at = held.free_at - timezone.now()
    assert timedelta(days=29, hours=23) < free_at <= timedelta(days=30)

    HeldName.objects.update(free_at=timezone.now() - timedelta(seconds=1))
    assert sign_up("bob").status_code == 302
    assert User.objects.get(username="bob").pk != rival.pk


def test_a_deleted_name_cannot_be_taken_or_deleted_twice(rival: User) -> None:
    services.delete_account(rival, PASSWORD)
    assert sign_up(deleted_name(rival.pk)).status_code == 200
    gone = User.objects.get(pk=rival.pk)
    with pytest.raises(services.ServiceError, match="already deleted"):
        services.delete_account(gone, PASSWORD)


def test_a_taken_name_in_another_case_is_refused_not_an_error(player: User) -> None:
    refused = sign_up("ALICE")
    assert refused.status_code == 200 and "already exists" in refused.text


def test_admin_lists_a_deleted_account_and_can_still_save_it(rival: User) -> None:
    from django.contrib import admin
    from django.test import RequestFactory

    gone = services.delete_account(rival, PASSWORD)
    staff = User.objects.create_superuser("mod", password="a-moderators-secret")
    page = client_for(staff).get("/admin/accounts/user/?deleted=yes")
    assert page.status_code == 200 and gone.username in page.text
    assert "Email verified" in page.text or "email verified" in page.text.lower()
    assert "mod" not in page.text.split("result_list")[1].split("</table>")[0]

    request = RequestFactory().post("/")
    request.user = staff
    model_admin = admin.site._registry[User]
    form_class = model_admin.get_form(request, gone, change=True)
    assert "username" not in form_class.base_fields  # read only: the site's name stays
    data = {
        "email": "",
        "is_active": "",
        "date_joined_0": gone.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": gone.date_joined.strftime("%H:%M:%S"),
        "email_verified": "on",
    }
    form = form_class(data, instance=gone)
    assert form.is_valid(), form.errors
