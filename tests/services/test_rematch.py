"""Play again: a new table with the same people, game and options, started when all say yes."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from accounts.models import User
from games import services
from games.boards import render_board
from games.models import Game
from games.notifications.badge import unread_count
from games.services import clocks, presence
from tests.conftest import client_for
from tests.support.clock import Clock
from tests.support.finished_games import finished_game, play_out
from tests.support.finished_games import running_game as bot_game
from tests.support.sockets import at_table, open_board, push_saying, socket
from tests.support.sweeps import sweep_once

# The module (games.services.rematch, the name, is the service function).
rematch_offers = importlib.import_module("games.services.rematch")


def seats_of(game: Game) -> dict[str, tuple[str, bool | None]]:
    """Who sits at a table: name -> (bot level, accepted)."""
    return {s.user.username: (s.bot, s.accepted) for s in game.seats.select_related("user")}


@pytest.mark.django_db
def test_the_rematch_starts_when_everyone_says_yes(player: User, rival: User) -> None:
    old = finished_game([player, rival], "cakehalla", bots=1)
    version = old.version
    response = client_for(player).post(f"/games/{old.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    new = services.current_rematch(old)
    assert new is not None and new.status == Game.Status.OPEN
    assert (new.kind, new.capacity, new.options) == (old.kind, old.capacity, old.options)
    bot = next(s.user.username for s in old.seats.select_related("user") if s.bot)
    assert seats_of(new) == {"alice": ("", True), "bob": ("", None), bot: ("greedy", True)}
    old.refresh_from_db()
    assert old.version > version  # pushed to the old table's screens
    rival_sees = render_board(old, rival)
    assert f'href="/games/{new.pk}/"' in rival_sees and "Yes, play again" in rival_sees
    assert "Waiting for bob" in rival_sees

    # bob says yes from the old table's page: the last yes deals the new game.
    response = client_for(rival).post(f"/games/{old.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING and new.snapshot is not None
    assert "The rematch has started" in response.content.decode()
    assert "Go to table" in render_board(old, player)
    assert set(new.seats.values_list("user_id", flat=True)) == set(
        old.seats.values_list("user_id", flat=True)
    )


@pytest.mark.django_db
def test_bots_always_accept_so_a_game_against_bots_starts_at_once(player: User) -> None:
    old = finished_game([player], "midnight-bakery", bots=2)
    new = services.rematch(old, player)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING
    assert new.rematch_of_id == old.pk and new.options == old.options
    assert sorted(new.seats.values_list("bot", flat=True)) == ["", "greedy", "greedy"]
    assert new.moves >= 2  # both bots have locked their first pick


@pytest.mark.django_db
def test_a_refusal_calls_the_rematch_off_and_both_tables_say_who(player: User, rival: User) -> None:
    old = finished_game([player, rival], "midnight-bakery", bots=0)
    new = services.rematch(old, player)
    response = client_for(rival).post(f"/games/{new.pk}/rematch/decline/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    new.refresh_from_db()
    assert new.status == Game.Status.CANCELLED and new.snapshot is None
    assert seats_of(new)["bob"] == ("", False)
    assert "This rematch was called off" in render_board(new, player)
    old_board = render_board(old, player)
    assert "was called off: bob declined" in old_board
    # Nobody can say yes to it any more, nor can the host start it.
    with pytest.raises(services.ServiceError, match="called off"):
        services.accept_rematch(new, rival)
    with pytest.raises(services.ServiceError):
        services.start(new, player)
    # A new offer makes a new table.
    again = services.rematch(old, rival)
    assert again.pk != new.pk and again.status == Game.Status.OPEN
    # Declined from the finished game's own page this time.
    response = client_for(player).post(f"/games/{old.pk}/rematch/decline/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    again.refresh_from_db()
    assert again.status == Game.Status.CANCELLED
    assert "alice declined" in render_board(old, rival)


@pytest.mark.django_db
def test_the_host_cannot_start_a_rematch_before_everyone_said_yes(
    player: User, rival: User
) -> None:
    old = finished_game([player, rival], "midnight-bakery", bots=1)
    new = services.rematch(old, player)
    with pytest.raises(services.ServiceError, match="Waiting for bob"):
        services.start(new, player)
    new.refresh_from_db()
    assert new.status == Game.Status.OPEN


@pytest.mark.django_db
def test_the_host_calling_a_rematch_off_is_told_at_the_old_table(player: User, rival: User) -> None:
    old = finished_game([player, rival], "midnight-bakery", bots=1)
    new = services.rematch(old, player)
    old.refresh_from_db()
    version = old.version
    services.cancel(new, player)
    old.refresh_from_db()
    assert old.version > version
    assert f"table {new.pk}</a> was called off" in render_board(old, rival)


@pytest.mark.django_db
def test_who_may_offer_a_rematch(player: User, rival: User, outsider: User) -> None:
    running = bot_game([player, rival])
    with pytest.raises(services.ServiceError, match="once the game is over"):
        services.rematch(running, player)
    old = finished_game([player, rival], "midnight-bakery", bots=1)
    with pytest.raises(services.NotAllowed):
        services.rematch(old, outsider)
    response = client_for(outsider).post(f"/games/{old.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert "Only the bakers of this game" in response.content.decode()
    assert services.current_rematch(old) is None
    assert "Play again" not in render_board(old, outsider)
    # A stray decline where nothing is on offer changes nothing.
    response = client_for(rival).post(f"/games/{old.pk}/rematch/decline/", HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "No rematch is on offer" in response.content.decode()


@pytest.mark.django_db
def test_a_person_who_resigned_is_replaced_by_the_house_bot(player: User, rival: User) -> None:
    game = bot_game([player, rival])
    services.resign(game, rival)
    old = play_out(game, [player])
    with pytest.raises(services.NotAllowed, match="resigned"):
        services.rematch(old, rival)
    new = services.rematch(old, player)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING  # the only person left said yes; bots always do
    users = set(new.seats.values_list("user__username", flat=True))
    assert "bob" not in users and len(users) == old.seats.count()


@pytest.mark.django_db(transaction=True)
async def test_the_offer_and_the_start_are_pushed_to_the_old_tables_screens(
    player: User, rival: User
) -> None:
    old = await database_sync_to_async(finished_game)([player, rival], "midnight-bakery", 1)
    ws = await socket(old, rival)
    await open_board(ws)
    new = await database_sync_to_async(services.rematch)(old, player)
    # Two pushes, in either order: the offer on the board, and the menu's inbox badge (bob is
    # told of the offer).
    pushes = [await ws.receive_from(), await ws.receive_from()]
    (badge,) = [html for html in pushes if 'id="inbox-link"' in html]
    (pushed,) = [html for html in pushes if html != badge]
    unread = await database_sync_to_async(unread_count)(rival)  # the offer (and the end, maybe)
    assert unread >= 1 and f'title="Unread notifications">{unread}<' in badge
    assert f'href="/games/{new.pk}/"' in pushed and "Yes, play again" in pushed
    await database_sync_to_async(services.rematch)(old, rival)
    await push_saying(ws, "The rematch has started")
    await ws.disconnect()


@pytest.mark.django_db
def test_a_rematch_keeps_the_tables_settings(player: User) -> None:
    old = finished_game([player], "midnight-bakery", bots=2)
    Game.objects.filter(pk=old.pk).update(
        pace=Game.Pace.FAST, watchers=Game.Watchers.PLAYERS, spectator_chat=True, private=True
    )
    old.refresh_from_db()
    new = services.rematch(old, player)
    new.refresh_from_db()
    kept = ("pace", "watchers", "spectator_chat", "private", "options", "capacity", "kind")
    assert {f: getattr(new, f) for f in kept} == {f: getattr(old, f) for f in kept}


# --- people away do not hold a rematch up -------------------------------------------------


def after_the_away_rule(clock: Clock, settings: Any) -> None:
    """Time passes beyond the away rule; the worker's sweep runs (it renews open sockets)."""
    clock.forward(settings.AWAY_SECONDS + 1)
    sweep_once()


@pytest.mark.django_db
def test_someone_away_does_not_block_the_rematch_once_everyone_here_said_yes(
    settings: Any, clock: Clock, player: User, rival: User, make_user: Any
) -> None:
    dave = make_user("dave")
    old = finished_game([player, rival, dave], "midnight-bakery", bots=0)
    clock.at = timezone.now()
    at_table(old, rival)  # bob is at the finished game's page; dave closed his tab
    new = services.rematch(old, player)
    # Within the away rule's 30 s nobody is away yet: both are still to answer.
    board = render_board(old, rival)
    assert re.search(r"Waiting for (bob, dave|dave, bob)\.", board) and "Away:" not in board
    after_the_away_rule(clock, settings)
    new.refresh_from_db()
    assert new.status == Game.Status.OPEN  # bob is here and has not answered
    board = render_board(old, rival)
    assert "Waiting for bob." in board
    assert "Away: dave. The rematch starts without them once everyone here has said yes." in board
    with pytest.raises(services.ServiceError, match="Waiting for bob"):
        services.start(new, player)

    services.accept_rematch(new, rival)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING and new.capacity == 2
    assert set(new.seats.values_list("user__username", flat=True)) == {"alice", "bob"}
    assert {s.position for s in new.seats.all()} == {0, 1}
    assert "Dealt without dave" in new.notices[-1]["text"]
    assert "The rematch has started" in render_board(old, player)
    with pytest.raises(services.ServiceError, match="started without you: you were away"):
        services.accept_rematch(new, dave)


@pytest.mark.django_db
def test_someone_going_away_deals_the_rematch_at_the_next_sweep(
    settings: Any, clock: Clock, player: User, rival: User, make_user: Any
) -> None:
    dave = make_user("dave")
    old = finished_game([player, rival, dave], "midnight-bakery", bots=0)
    clock.at = timezone.now()
    at_table(old, rival)
    gone = at_table(old, dave)
    new = services.rematch(old, player)
    services.accept_rematch(new, rival)
    new.refresh_from_db()
    assert new.status == Game.Status.OPEN  # dave is here and has not answered
    presence.closed(gone, old.pk)  # dave closes his tab
    clock.forward(settings.AWAY_SECONDS - 5)
    sweep_once()
    new.refresh_from_db()
    assert new.status == Game.Status.OPEN  # reconnecting is not away
    version = Game.objects.get(pk=old.pk).version
    clock.forward(6)
    sweep_once()
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING
    assert set(new.seats.values_list("user__username", flat=True)) == {"alice", "bob"}
    assert Game.objects.get(pk=old.pk).version > version  # the old table's screens are told
    # Another process's sweep finds nothing more to deal.
    assert rematch_offers.sweep() == []
    assert rematch_offers.do_settle(new.pk) is False


@pytest.mark.django_db
def test_a_rematch_waits_for_someone_away_when_too_few_bakers_said_yes(
    settings: Any, clock: Clock, player: User, rival: User
) -> None:
    old = finished_game([player, rival], "midnight-bakery", bots=0)
    clock.at = timezone.now()
    new = services.rematch(old, player)
    after_the_away_rule(clock, settings)
    new.refresh_from_db()
    assert new.status == Game.Status.OPEN  # alice alone cannot play
    assert "Away: bob. Too few bakers said yes without them" in render_board(old, player)
    with pytest.raises(services.ServiceError, match="Too few bakers"):
        services.start(new, player)
    at_table(new, rival)  # bob comes back, to the rematch's own page, and says yes
    assert "Waiting for bob." in render_board(old, player)
    services.accept_rematch(new, rival)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING and new.seats.count() == 2


@pytest.mark.django_db
def test_bots_count_towards_the_bakers_a_rematch_needs(
    settings: Any, clock: Clock, player: User, rival: User
) -> None:
    old = finished_game([player, rival], "midnight-bakery", bots=1)
    clock.at = timezone.now()
    new = services.rematch(old, player)
    after_the_away_rule(clock, settings)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING  # alice and the bot; bob was away
    assert sorted(new.seats.values_list("bot", flat=True)) == ["", "greedy"]
    assert new.moves >= 1  # the bot has locked its first pick


@pytest.mark.django_db
def test_the_host_may_deal_by_hand_once_only_people_away_are_left(
    settings: Any, clock: Clock, player: User, rival: User, make_user: Any
) -> None:
    dave = make_user("dave")
    old = finished_game([player, rival, dave], "midnight-bakery", bots=0)
    clock.at = timezone.now()
    new = services.rematch(old, player)
    services.accept_rematch(new, rival)
    clock.forward(settings.AWAY_SECONDS + 1)  # no sweep ran (bots inline, no worker)
    services.start(new, player)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING
    assert "dave" not in set(new.seats.values_list("user__username", flat=True))
    assert "The rematch has started" in render_board(old, rival)


@pytest.mark.django_db
def test_the_old_tables_screens_are_told_when_its_rematchs_away_list_changes(
    settings: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch, player: User, rival: User
) -> None:
    told: list[int] = []
    monkeypatch.setattr(presence, "announce", told.append)
    old = finished_game([player, rival], "midnight-bakery", bots=0)
    clock.at = timezone.now()
    new = services.rematch(old, player)
    rematch_offers.sweep()
    assert told == []  # nobody is away before the away rule's time
    clock.forward(settings.AWAY_SECONDS + 1)
    rematch_offers.sweep()
    assert told == [old.pk]  # bob is away now
    rematch_offers.sweep()
    assert told == [old.pk]  # nothing changed
    told.clear()
    at_table(new, rival)
    rematch_offers.sweep()
    assert told == [new.pk, old.pk]  # bob's socket at the new table, then the old table told


@pytest.mark.django_db(transaction=True)
async def test_the_away_list_is_pushed_to_the_old_tables_screens(
    settings: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch, player: User, rival: User
) -> None:
    old = await database_sync_to_async(finished_game)([player, rival], "midnight-bakery", 0)
    clock.at = timezone.now()
    ws = await socket(old, player)
    await open_board(ws)
    await database_sync_to_async(services.rematch)(old, player)
    assert "Waiting for bob." in await ws.receive_from()
    clock.forward(settings.AWAY_SECONDS + 1)
    await database_sync_to_async(sweep_once)()  # bob is away now: the old table is told
    while "Away: bob." not in (pushed := await ws.receive_from()):
        pass
    assert "Too few bakers said yes without them" in pushed
    await ws.disconnect()


def fast_rematch_offered(player: User, rival: User) -> tuple[Game, Game]:
    """A finished fast night of the two, and the rematch alice offered (bob has not answered)."""
    old = finished_game([player, rival], "midnight-bakery", bots=0)
    Game.objects.filter(pk=old.pk).update(pace="fast")
    old.refresh_from_db()
    return old, services.rematch(old, player)


def clock_starts(game: Game) -> set[Any]:
    """When the clocks of the table's seats start (every seat has one at a night's first pick)."""
    game.refresh_from_db()
    pace = clocks.pace(game)
    return {clocks.clock_starts(s, pace) for s in game.seats.all()}


@pytest.mark.django_db(transaction=True)
async def test_a_rematchs_clocks_start_as_soon_as_everyone_has_come(
    settings: Any, clock: Clock, player: User, rival: User
) -> None:
    grace = timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)
    old, new = await database_sync_to_async(fast_rematch_offered)(player, rival)
    await database_sync_to_async(services.rematch)(old, rival)  # dealt, nobody at it yet
    held = clock.at + grace
    assert await database_sync_to_async(clock_starts)(new) == {held}
    clock.forward(0.3)
    mine = await socket(new, player)
    await open_board(mine)
    assert await database_sync_to_async(clock_starts)(new) == {held}  # bob is still to come
    theirs = await socket(new, rival)
    await open_board(theirs)  # the last one here: the clocks run from now
    assert await database_sync_to_async(clock_starts)(new) == {clock.at}
    pushed = await mine.receive_from()
    assert 'data-held="arrival"' not in pushed and "data-deadline" in pushed
    for ws in (mine, theirs):
        await ws.disconnect()


@pytest.mark.django_db
def test_a_rematch_dealt_with_everyone_at_it_starts_its_clocks_at_once(
    clock: Clock, player: User, rival: User
) -> None:
    old, new = fast_rematch_offered(player, rival)
    for person in (player, rival):
        at_table(new, person)
    services.rematch(old, rival)
    assert clock_starts(new) == {clock.at}


@pytest.mark.django_db
def test_a_rematch_someone_is_late_to_waits_out_the_grace(
    settings: Any, clock: Clock, player: User, rival: User
) -> None:
    old, new = fast_rematch_offered(player, rival)
    at_table(new, player)
    services.rematch(old, rival)
    assert clock_starts(new) == {clock.at + timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)}
