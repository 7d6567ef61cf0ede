"""Issue 32, point 3: the services' signals become notifications, once per event and person,
never for one's own doing; the inbox shows them read and unread, and the menu counts them."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F

from accounts.models import User
from games import services
from games.events import game_ended, invited, rematch_offered, turn_came
from games.friends import services as friendship
from games.models import Game
from games.notifications import invitations, receivers, sweep
from games.notifications import services as notifications
from games.notifications.models import Notification
from games.notifications.tests.tables import move, turn_based, whose_move
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


def badge(html: str) -> int | None:
    found = re.search(r'id="inbox-badge"[^>]*>(\d+)<', html)
    return int(found.group(1)) if found else None


def rows(user: User, kind: str = "") -> list[Notification]:
    found = Notification.objects.filter(recipient=user)
    return list(found.filter(kind=kind) if kind else found)


def test_the_turn_told_twice_is_one_notification(player: User, rival: User) -> None:
    game = turn_based([player, rival])
    waiting = whose_move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[waiting.pk])
    turn_came.send(Game, game_id=game.pk, user_ids=[waiting.pk])
    (row,) = rows(waiting, "turn")
    assert row.text == f"It is your move at {game}."
    assert row.url == f"/games/{game.pk}/"


def test_a_new_turn_replaces_the_older_one_of_that_table(player: User, rival: User) -> None:
    game = turn_based([player, rival])
    first = whose_move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[first.pk])
    (old,) = rows(first, "turn")
    other = turn_based([player, rival])
    turn_came.send(Game, game_id=other.pk, user_ids=[whose_move(other).pk])
    move(game)  # first's turn is over: the other's begins
    while whose_move(game) != first:
        move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[first.pk])
    turn_came.send(Game, game_id=game.pk, user_ids=[first.pk])
    (new,) = [r for r in rows(first, "turn") if r.game_id == game.pk]
    assert new.key != old.key and new.read_at is None
    assert not Notification.objects.filter(pk=old.pk).exists()
    assert Notification.objects.filter(game=other, kind="turn").count() == 1  # other tables stay


def test_an_older_turn_told_late_does_not_come_back(player: User, rival: User) -> None:
    game = turn_based([player, rival])
    first = whose_move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[first.pk])
    (old,) = rows(first, "turn")
    move(game)
    while whose_move(game) != first:
        move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[first.pk])
    (new,) = rows(first, "turn")
    notifications.tell(game, "turn", {first.pk: old.key}, old.text)  # a slow process, one turn late
    assert [r.key for r in rows(first, "turn")] == [new.key]


def test_the_mover_is_never_told_of_their_own_move(player: User, rival: User) -> None:
    game = turn_based([player, rival])
    mover = move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[mover.pk])
    turn_came.send(Game, game_id=game.pk, user_ids=[player.pk, rival.pk], by=mover.pk)
    assert rows(mover) == []
    other = rival if mover == player else player
    assert len(rows(other, "turn")) == 1


def test_a_live_table_tells_no_turns(player: User, rival: User, running_game: Game) -> None:
    turn_came.send(Game, game_id=running_game.pk, user_ids=[player.pk, rival.pk])
    assert Notification.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_threads_telling_the_same_turn_store_one_row(player: User, rival: User) -> None:
    game = turn_based([player, rival])
    waiting = whose_move(game)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def tell() -> None:
        try:
            barrier.wait()
            turn_came.send(Game, game_id=game.pk, user_ids=[waiting.pk])
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=tell) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(rows(waiting, "turn")) == 1


def test_the_sweep_tells_a_turn_whose_signal_was_lost_under_the_same_key(
    player: User, rival: User
) -> None:
    game = turn_based([player, rival])
    waiting = whose_move(game)
    sweep.LOOKED.clear()
    sweep.sweep_turns()
    turn_came.send(Game, game_id=game.pk, user_ids=[waiting.pk])
    sweep.LOOKED.clear()
    sweep.sweep_turns()
    (row,) = rows(waiting, "turn")
    assert row.key == f"turn:{game.pk}:0"
    assert Notification.objects.count() == 1


def test_a_finished_game_tells_its_people_once(
    player: User, rival: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = finished_game([player, rival])
    told = Notification.objects.filter(kind="ended", game=game)
    assert told.count() >= 1  # the one who made the last move is not told
    game_ended.send(Game, game_id=game.pk)
    assert told.count() == told.values("recipient").distinct().count()
    assert all(row.text == f"{game} is over." for row in told)
    last = game.actions.filter(seq=game.moves).first()
    assert last is not None
    if not last.bot:
        assert not told.filter(recipient_id=last.user_id).exists()


def test_a_rematch_tells_the_others_not_the_one_who_offered(
    player: User, rival: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    game = finished_game([player, rival])
    with django_capture_on_commit_callbacks(execute=True):
        new = services.rematch(game, player)
    assert rows(player, "rematch") == []
    (row,) = rows(rival, "rematch")
    assert row.game_id == new.pk
    assert row.text == f"alice offers a rematch of Midnight Bakery #{game.pk}."
    rematch_offered.send(Game, game_id=new.pk, by=player.pk)
    assert len(rows(rival, "rematch")) == 1


def test_an_invitation_tells_the_invited_not_the_host(
    player: User, rival: User, outsider: User
) -> None:
    game = services.create_game(player, "cakehalla", 3, private=True)
    invited.send(Game, game_id=game.pk, by=player.pk, to=[rival.pk, outsider.pk, player.pk])
    invited.send(Game, game_id=game.pk, by=player.pk, to=rival.pk)  # one person, as friends do
    assert rows(player) == []
    assert [r.url for r in rows(rival, "invite")] == [game.invite_url]
    assert len(rows(outsider, "invite")) == 1


def test_bots_are_never_told(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2)
    bot = services.bot_account("greedy", set())
    invited.send(Game, game_id=game.pk, by=player.pk, to=[bot.pk])
    assert Notification.objects.count() == 0


def test_the_menu_counts_unread_and_the_inbox_reads_them(
    player: User, rival: User, outsider: User
) -> None:
    client = client_for(rival)
    assert badge(client.get("/").content.decode()) is None
    for capacity in (2, 3):
        game = services.create_game(player, "cakehalla", capacity)
        invited.send(Game, game_id=game.pk, by=player.pk, to=[rival.pk])
    assert badge(client.get("/").content.decode()) == 2
    assert badge(client_for(outsider).get("/").content.decode()) is None
    page = client.get("/games/inbox/").content.decode()
    assert page.count('class="notification unread"') == 2
    first = rows(rival)[0]
    opened = client.get(f"/games/inbox/{first.pk}/")
    assert opened.status_code == 302 and opened["Location"] == first.url
    assert badge(client.get("/").content.decode()) == 1
    page = client.get("/games/inbox/").content.decode()
    assert (
        page.count('class="notification unread"') == 1
        and page.count('class="notification read"') == 1
    )
    client.post("/games/inbox/read/")
    assert badge(client.get("/").content.decode()) is None
    assert not Notification.objects.filter(read_at=None).exists()


def test_nobody_opens_or_reads_another_persons_notifications(
    player: User, rival: User, outsider: User
) -> None:
    game = services.create_game(player, "cakehalla", 2)
    invited.send(Game, game_id=game.pk, by=player.pk, to=[rival.pk])
    (row,) = rows(rival)
    assert client_for(outsider).get(f"/games/inbox/{row.pk}/").status_code == 404
    client_for(outsider).post("/games/inbox/read/")
    assert client_for(None).get("/games/inbox/").status_code == 302
    assert client_for(rival).get("/games/inbox/read/").status_code == 405
    row.refresh_from_db()
    assert row.read_at is None


def test_a_friends_invitation_reaches_the_inbox(
    player: User, rival: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    cache.clear()  # the invitations' limits count in the cache
    friendship.ask(player, rival)
    friendship.accept(rival, player)
    game = services.create_game(player, "cakehalla", 2)
    with django_capture_on_commit_callbacks(execute=True):
        invitations.invite(game, player, rival)
    (row,) = rows(rival, "invite")
    assert row.text == f"alice invites you to {game}." and row.url == f"/games/{game.pk}/"
    assert rows(player) == []


def test_a_deleted_account_leaves_no_notifications_and_is_renamed_in_others(
    player: User, rival: User
) -> None:
    game = services.create_game(player, "cakehalla", 3)
    invited.send(Game, game_id=game.pk, by=player.pk, to=[rival.pk])
    invited.send(Game, game_id=game.pk, by=rival.pk, to=[player.pk])
    services.delete_account(player, "a-long-baking-secret")
    assert rows(player) == []
    (told,) = rows(rival)
    assert told.text == f"a deleted baker #{player.pk} invites you to {game}."


def test_a_failing_notification_never_fails_the_move(
    player: User, rival: User, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = turn_based([player, rival])

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the notifications table is gone")

    monkeypatch.setattr(receivers, "tell_turn", broken)
    turn_came.send(Game, game_id=game.pk, user_ids=[whose_move(game).pk])
    assert "A notification was not stored (turn_came_here)" in caplog.text


def test_a_turn_once_played_is_read_and_off_the_badge(
    player: User, rival: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    game = turn_based([player, rival])
    first = whose_move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[first.pk])
    assert badge(client_for(first).get("/").content.decode()) == 1
    with django_capture_on_commit_callbacks(execute=True):
        move(game)
    (row,) = rows(first, "turn")
    assert row.read_at is not None
    assert badge(client_for(first).get("/").content.decode()) is None


def test_the_sweep_settles_a_turn_a_stand_in_ended(player: User, rival: User) -> None:
    game = turn_based([player, rival])
    first = whose_move(game)
    turn_came.send(Game, game_id=game.pk, user_ids=[first.pk])
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    position = game.seats.get(user=first).position
    assert position is not None
    state = engine.apply_action(state, position, engine.legal_actions(state, position)[0])
    # Stored as a stand-in's move is (no `stored` signal): only the sweep sees the turn end.
    Game.objects.filter(pk=game.pk).update(snapshot=engine.dump(state), version=F("version") + 1)
    sweep.LOOKED.clear()
    assert rows(first, "turn")[0].read_at is None
    sweep.sweep_turns()
    assert rows(first, "turn")[0].read_at is not None


def test_the_inbox_says_just_now_under_a_minute_then_how_long_ago(
    player: User, rival: User
) -> None:
    game = services.create_game(player, "cakehalla", 2)
    invited.send(Game, game_id=game.pk, by=player.pk, to=[rival.pk])
    page = client_for(rival).get("/games/inbox/").content.decode()
    assert ">just now</time>" in page and ">0\xa0minutes" not in page  # timesince's own space
    Notification.objects.filter(recipient=rival).update(
        created_at=F("created_at") - timedelta(minutes=5)
    )
    assert ">5\xa0minutes ago</time>" in client_for(rival).get("/games/inbox/").content.decode()
