"""Relaxed tables: a person who went away while the table waits on them gets a house bot after
RELAXED_ABSENCE_SECONDS; a short drop never does; exactly one process hands the seat over.

Time is moved forward by patching the clocks' time; the sweep is called as the worker calls it.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Action, Game, Seat
from games.services import absence, presence
from games.services.base import load_state
from tests.live.test_bot_worker import WAIT
from tests.support.clock import Clock
from tests.support.sockets import at_table
from tests.support.sweeps import sweep_once

pytestmark = pytest.mark.django_db


def lock_a_pick(game: Game, user: User) -> None:
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    legal = engine.legal_actions(load_state(game), position)
    services.play(game, user, legal[0], game.version)


def waits_on(game: Game, user: User) -> bool:
    game.refresh_from_db()
    position = game.seats.get(user=user).position
    return position in game.spec.engine.active_seats(load_state(game))


def seat_of(game: Game, user: User) -> Seat:
    return game.seats.get(user=user)


def later(clock: Clock, seconds: float, settings: Any) -> None:
    """Time passes; the worker's sweep runs (renewing the open sockets) about every 5 s."""
    step = settings.BOT_SWEEP_SECONDS
    while seconds > 0:
        clock.forward(min(step, seconds))
        seconds -= step
        sweep_once()


def test_a_person_away_while_the_table_waits_gets_a_house_bot_and_may_come_back(
    settings: Any, clock: Clock, running_game: Game, player: User, rival: User
) -> None:
    at_table(running_game, rival)
    gone = at_table(running_game, player)
    lock_a_pick(running_game, rival)  # the table now waits on alice alone
    clock.at = timezone.now()
    presence.closed(gone, running_game.pk)  # alice closes her tab
    later(clock, settings.RELAXED_ABSENCE_SECONDS - 5, settings)
    assert not seat_of(running_game, player).resigned
    later(clock, 10, settings)
    mine = seat_of(running_game, player)
    assert mine.resigned and mine.handed_over == services.ABSENT and mine.bot
    running_game.refresh_from_db()
    told = [n["text"] for n in running_game.notices]
    assert any(
        t.startswith(f"alice was away while the table waited: a {mine.bot} bot plays") for t in told
    )
    assert Action.objects.filter(game=running_game, user=player, bot=mine.bot).exists()
    with pytest.raises(services.NotAllowed, match="You were away while the table waited on you"):
        services.play(running_game, player, {}, None)
    services.take_seat_back(running_game, player)
    assert not seat_of(running_game, player).resigned


def test_a_person_reconnecting_is_never_handed_over(
    settings: Any, clock: Clock, running_game: Game, player: User, rival: User
) -> None:
    at_table(running_game, rival)
    tab = at_table(running_game, player)
    lock_a_pick(running_game, rival)
    clock.at = timezone.now()
    # alice thinks for longer than the absence rule, her page open all along: relaxed means that.
    later(clock, settings.RELAXED_ABSENCE_SECONDS * 2, settings)
    assert not seat_of(running_game, player).resigned
    for _ in range(20):  # then her connection drops and comes back, again and again
        presence.closed(tab, running_game.pk)
        later(clock, settings.AWAY_SECONDS - 5, settings)
        tab = at_table(running_game, player)
        later(clock, 5, settings)
    assert not seat_of(running_game, player).resigned
    # Gone for good: the absence counts from her last socket, not from when the table waited.
    presence.closed(tab, running_game.pk)
    later(clock, settings.AWAY_SECONDS + 5, settings)
    assert not seat_of(running_game, player).resigned
    later(clock, settings.RELAXED_ABSENCE_SECONDS - settings.AWAY_SECONDS, settings)
    assert seat_of(running_game, player).handed_over == services.ABSENT


def test_only_a_seat_the_table_waits_on_is_handed_over(
    settings: Any, clock: Clock, running_game: Game, player: User, rival: User
) -> None:
    at_table(running_game, rival)
    lock_a_pick(running_game, player)  # alice locked her pick and left; bob thinks
    clock.at = timezone.now()
    later(clock, settings.RELAXED_ABSENCE_SECONDS + 10, settings)
    assert not seat_of(running_game, player).resigned
    assert not seat_of(running_game, rival).resigned  # bob is here
    lock_a_pick(running_game, rival)  # the next pick: the table waits on alice from now
    assert waits_on(running_game, player)
    clock.at = timezone.now()
    later(clock, settings.RELAXED_ABSENCE_SECONDS - 10, settings)
    assert not seat_of(running_game, player).resigned
    later(clock, 15, settings)
    assert seat_of(running_game, player).handed_over == services.ABSENT


def test_a_paced_table_leaves_absence_to_its_clock(
    settings: Any, clock: Clock, player: User, rival: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 2, pace="normal")
    services.join(game, rival)
    services.start(game, player)
    Seat.objects.filter(game=game).update(deadline=None)  # no stand-in gets in the way
    clock.at = timezone.now()
    clock.forward(settings.RELAXED_ABSENCE_SECONDS * 2)
    assert absence.sweep() == []


@pytest.mark.django_db(transaction=True)
def test_two_processes_sweeping_one_absent_seat_hand_it_over_once(
    monkeypatch: pytest.MonkeyPatch, settings: Any, clock: Clock, player: User, rival: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 2)
    services.join(game, rival)
    services.start(game, player)
    clock.at = timezone.now()
    clock.forward(settings.RELAXED_ABSENCE_SECONDS + 1)  # alice away all along
    at_table(game, rival)
    both = threading.Barrier(2, timeout=WAIT)
    locked = absence.do_hand_over_absent

    def together(*args: Any) -> bool:
        both.wait()  # each process has seen the table; now both lock
        return locked(*args)

    monkeypatch.setattr(absence, "do_hand_over_absent", together)
    handed: list[list[int]] = []
    errors: list[BaseException] = []

    def sweeping() -> None:
        try:
            handed.append(absence.sweep())
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeping) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not errors
    assert sorted(handed) == [[], [game.pk]]
    handed_over = Seat.objects.filter(game=game, handed_over=services.ABSENT)
    assert list(handed_over.values_list("user__username", flat=True)) == ["alice"]
    game.refresh_from_db()
    assert sum("was away while the table waited" in n["text"] for n in game.notices) == 1
