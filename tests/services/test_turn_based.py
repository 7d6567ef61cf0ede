"""Turn-based tables: days a move, a bank, deadlines that outlive a restart, stand-ins, ratings,
and the `turn_came` announcement once per new turn.

Time is moved forward by patching the clocks' time (days pass in a test), never slept; a restart
is fresh reads from the database and the runner's sweep.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Rating, User
from games import services
from games.boards import render_board
from games.events import turn_came
from games.live.runner import Runner
from games.models import Action, Game, Seat
from games.services import absence, clocks
from games.services.clocks.deadlines import LONGEST_TIMER, due_deadlines, next_deadline
from tests.conftest import client_for
from tests.support.clock import Clock
from tests.support.sweeps import sweep_once

pytestmark = pytest.mark.django_db

DAY = 86400.0
HOUR = 3600.0


def turn_based(people: list[User], kind: str, pace: str = "day1", bots: int = 0) -> Game:
    """A started turn-based table of these people (and bots), the first person hosting."""
    game = services.create_game(people[0], kind, len(people) + bots, pace=pace)
    for user in people[1:]:
        services.join(game, user)
    for _ in range(bots):
        services.add_bot(game, people[0], "greedy")
    services.start(game, people[0])
    game.refresh_from_db()
    return game


def to_move(game: Game, people: list[User]) -> list[User]:
    """The people the table waits on now."""
    game.refresh_from_db()
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    waiting = []
    for user in people:
        position = game.seats.get(user=user).position
        if position is not None and clocks.waits_on(game, state, position):
            waiting.append(user)
    return waiting


def move(game: Game, user: User, rng: random.Random) -> None:
    """The person moves as the greedy bot would, from their own view."""
    game.refresh_from_db()
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    position = game.seats.get(user=user).position
    legal = engine.legal_actions(state, position)
    action = game.spec.bots["greedy"](engine.view(state, position), legal, rng)
    services.play(game, user, action, game.version)


@contextmanager
def heard(callbacks: Callable[..., Any]) -> Iterator[list[tuple[int, list[int]]]]:
    """The turn_came announcements sent by what runs inside (on commit)."""
    sent: list[tuple[int, list[int]]] = []

    def listen(sender: Any, game_id: int, user_ids: list[int], **kwargs: Any) -> None:
        sent.append((game_id, sorted(user_ids)))

    turn_came.connect(listen)
    try:
        with callbacks(execute=True):
            yield sent
    finally:
        turn_came.disconnect(listen)


def left(seat: Seat, clock: Clock) -> float:
    assert seat.deadline is not None
    return (seat.deadline - clock.at).total_seconds()


@pytest.mark.parametrize(
    ("pace", "per_move", "bank"),
    [("day1", DAY, 2 * DAY), ("day3", 3 * DAY, 3 * DAY), ("day7", 7 * DAY, 7 * DAY)],
)
def test_a_turn_based_pace_gives_days_a_move_and_a_bank(
    clock: Clock, player: User, rival: User, pace: str, per_move: float, bank: float
) -> None:
    game = turn_based([player, rival], "cakehalla", pace)
    assert game.turn_based
    first = next(s for s in game.seats.all() if s.deadline is not None)
    assert first.bank == bank
    assert left(first, clock) == per_move + bank


def test_the_new_table_form_offers_the_turn_based_paces_with_their_banks(player: User) -> None:
    page = client_for(player).get("/games/new/").content.decode()
    for words in (
        "Turn-based: 1 day a move, 2 days bank",
        "Turn-based: 3 days a move, 3 days bank",
        "Turn-based: 7 days a move, 7 days bank",
    ):
        assert words in page


def test_the_table_says_the_clock_in_days(clock: Clock, player: User, rival: User) -> None:
    game = turn_based([player, rival], "midnight-bakery", "day3")
    board = render_board(game, player)
    assert "Clock: 3 d a move plus a 3 d bank" in board


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_a_turn_based_game_is_played_over_days_through_a_restart_and_a_missed_deadline(
    clock: Clock,
    player: User,
    rival: User,
    kind: str,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    people = [player, rival]
    game = turn_based(people, kind, "day1")
    rng = random.Random(7)
    moves = 0
    restarted = missed = False
    for _ in range(400):
        waiting = to_move(game, people)
        if not waiting:
            break
        if moves == 6 and not restarted:
            # The server stops for two hours: nothing is kept in memory but what the rows say.
            clock.forward(2 * HOUR)
            game = Game.objects.get(pk=game.pk)
            assert game.pk not in due_deadlines()  # hours late is still days early
            restarted = True
        if moves == 10 and not missed:
            deadlines = game.seats.filter(user__in=waiting).exclude(deadline=None)
            first = min(s.deadline for s in deadlines if s.deadline is not None)
            clock.at = first - timedelta(seconds=1)
            assert game.pk not in sweep_once()
            clock.forward(2)
            # The runner's sweep after a restart finds the deadline days after it was set.
            assert game.pk in sweep_once()
            assert services.run_bots(game.pk) >= 1
            stood_in = Action.objects.filter(game=game, bot=services.STAND_IN)
            late = {a.user for a in stood_in if a.user is not None}
            assert late and late <= set(waiting)  # whoever's time ran out (maybe both at once)
            game.refresh_from_db()
            told = " ".join(n["text"] for n in game.notices)
            for user in late:
                assert f"Time ran out for {user.username}" in told
                assert not game.seats.get(user=user).resigned
            missed = True
            continue
        clock.forward(5 * HOUR)  # a move every few hours
        move(game, waiting[0], rng)
        moves += 1
    game.refresh_from_db()
    assert restarted and missed
    assert game.status == Game.Status.OVER
    assert all(s.deadline is None for s in game.seats.all())
    assert game.spec.engine.dump(services.replay(game)) == game.snapshot
    # Rated in the game's own board, as a live game is.
    for user in people:
        assert Rating.objects.get(user=user, kind=kind).games == 1
    # The record pages work as at a live table.
    watcher = client_for(None)
    assert watcher.get(f"/games/{game.pk}/replay/").status_code == 200
    assert client_for(player).post(f"/games/{game.pk}/rematch/").status_code in (200, 204, 302)
    assert Game.objects.filter(rematch_of=game, pace="day1").exists()


def test_turn_came_is_sent_once_per_new_turn_to_the_people_whose_move_it_became(
    clock: Clock,
    player: User,
    rival: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with heard(django_capture_on_commit_callbacks) as sent:
        game = turn_based([player, rival], "cakehalla", "day1")
    first = to_move(game, [player, rival])
    assert sent == [(game.pk, [first[0].pk])]
    rng = random.Random(1)
    for _ in range(6):
        [mover] = to_move(game, [player, rival])
        other = rival if mover == player else player
        with heard(django_capture_on_commit_callbacks) as sent:
            move(game, mover, rng)
        if to_move(game, [player, rival]) == [other]:
            assert sent == [(game.pk, [other.pk])]  # never to the one who just moved
        else:
            assert sent == []  # the same turn goes on (a put-back): no new turn


def test_at_midnight_bakery_a_new_pick_tells_everyone_once_and_a_lock_tells_nobody(
    clock: Clock,
    player: User,
    rival: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with heard(django_capture_on_commit_callbacks) as sent:
        game = turn_based([player, rival], "midnight-bakery", "day1", bots=1)
    both = sorted([player.pk, rival.pk])
    assert sent == [(game.pk, both)]  # the bot gets nothing
    rng = random.Random(2)
    with heard(django_capture_on_commit_callbacks) as sent:
        move(game, player, rng)
    assert sent == []  # the rival's pick was already theirs to make
    with heard(django_capture_on_commit_callbacks) as sent:
        move(game, rival, rng)  # the last lock: the reveal deals the next pick
    assert sent == [(game.pk, both)]


def test_a_live_table_sends_no_turn_came(
    player: User, rival: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with heard(django_capture_on_commit_callbacks) as sent:
        game = turn_based([player, rival], "cakehalla", "fast")
        move(game, to_move(game, [player, rival])[0], random.Random(3))
    assert sent == []


def test_the_absence_sweep_never_hands_over_a_turn_based_seat(
    settings: Any, clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "cakehalla", "day7")
    clock.forward(settings.RELAXED_ABSENCE_SECONDS * 100)  # nobody has a socket at the table
    assert absence.sweep() == []
    sweep_once()
    assert not game.seats.filter(resigned=True).exists()
    waiting = game.seats.exclude(deadline=None).get()
    assert not absence.waits_on_absent(game, waiting, absence.absent_since(clock.at))


def test_a_deadline_days_away_holds_no_timer_and_the_sweep_finds_it() -> None:
    runner = Runner()
    runner.loop = asyncio.new_event_loop()
    try:
        runner.set_timer(1, 3 * DAY)
        assert 1 not in runner.timers
        runner.set_timer(1, LONGEST_TIMER / 2)
        assert 1 in runner.timers
    finally:
        runner.reset()


def test_the_sweep_finds_a_deadline_set_before_a_restart(
    clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "cakehalla", "day1")
    deadline = game.seats.exclude(deadline=None).get().deadline
    assert deadline is not None
    clock.at = deadline + timedelta(seconds=1)
    assert next_deadline(game.pk) is not None
    assert game.pk in due_deadlines()
    assert services.run_bots(game.pk) == 1
    assert timezone.is_aware(deadline)
