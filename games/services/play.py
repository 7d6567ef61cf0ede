"""Playing a game: moves, bots, results, resigning, closing results, replay."""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.ratings import rate_game
from games.engines import IllegalAction
from games.models import Action, Game, Seat, is_house_table
from games.records import archive, stats
from games.services import clocks
from games.services.base import (
    NotAllowed,
    ServiceError,
    StaleVersion,
    bots_due,
    bump,
    closed_reason,
    game_ended,
    hand_to_sockets,
    load_state,
    lock,
    lock_with_seats,
    notice,
    seats_in_order,
    turn_came,
)

# --- play ---------------------------------------------------------------------------------


def check_play(
    game: Game,
    user: User,
    version: int | None,
    moment: str | None,
    state: Any,
    seats: list[Seat],
) -> Seat:
    """The seat among `seats` (the game's) that may act now, or a ServiceError.

    A page that showed an older version is stale, unless the game says the seat's moment has
    not changed since (in Midnight Bakery a rival locking a pick does not change your batch).
    """
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("You do not sit at this game.")
    if game.status == Game.Status.OPEN:
        raise ServiceError("This game has not started yet.")
    if game.status != Game.Status.RUNNING or seat.position is None:
        raise StaleVersion(closed_reason(game))
    if seat.resigned:
        raise NotAllowed(f"{handed_over_why(game, seat)} A house bot plays your seat.")
    if version is not None and version != game.version:
        kind = game.spec
        same_moment = (
            moment is not None
            and state is not None
            and moment == kind.moment(kind.engine.view(state, seat.position))
        )
        if not same_moment:
            raise StaleVersion("The table moved on while you chose; look again and choose.")
    return seat


def play(
    game: Game | int,
    user: User,
    action: Mapping[str, Any],
    version: int | None,
    moment: str | None = None,
) -> Game:
    """Apply a player's action and store it; the bots answer after the commit."""
    game, worker_due = do_play(game, user, action, version, moment)
    if worker_due:
        bots_after_commit(game.pk)
    return game


@transaction.atomic
def do_play(
    game: Game | int, user: User, action: Mapping[str, Any], version: int | None, moment: str | None
) -> tuple[Game, bool]:
    """The player's action in one transaction; IllegalAction if refused. With the game: whether
    the worker has anything to do after it (left_for_worker)."""
    game, everyone = lock_with_seats(game)
    state = load_state(game) if game.snapshot is not None else None
    seat = check_play(game, user, version, moment, state, everyone)
    if not isinstance(action, dict):
        raise IllegalAction("That is not an action.")
    assert seat.position is not None
    before, state = state, game.spec.engine.apply_action(state, seat.position, action)
    log = [action_row(game, seat.position, action, user=user, bot="")]
    seats = {s.position: s for s in everyone if s.position is not None}
    if seats[seat.position].stand_ins:
        seats[seat.position].stand_ins = 0
        seats[seat.position].save(update_fields=["stand_ins"])
    record(game, state, log, seats, before)
    hand_to_sockets(game, everyone, state)
    bump(game, ["status", "snapshot", "moves", "finished_at"])
    return game, left_for_worker(game, state, seats)


def left_for_worker(game: Game, state: Any, seats: Mapping[int, Seat]) -> bool:
    """Whether the worker has anything to do after this move: a bot to act now, or a clock
    running (its drive sets the timer for the deadline). After a move at a table of people with
    no clock, waking it would only read the table back to find nothing due."""
    if any(seat.deadline is not None for seat in seats.values()):
        return True
    return due_bot(game, state, seats) is not None


def seated(game: Game) -> dict[int, Seat]:
    """The seats of a started game by position."""
    return {s.position: s for s in seats_in_order(game) if s.position is not None}


def action_row(
    game: Game, position: int, action: Mapping[str, Any], *, user: User | None, bot: str
) -> Action:
    """The next Action row of the game (not saved yet)."""
    game.moves += 1
    return Action(game=game, seq=game.moves, seat=position, payload=action, user=user, bot=bot)


def record(
    game: Game,
    state: Any,
    log: list[Action],
    seats: Mapping[int, Seat],
    before: Any = None,
    clocks_at: datetime | None = None,
) -> None:
    """Append the Action rows, save the snapshot, wind the clocks, and the results at the end.

    `before`: the state the moves started from (a mover still in the same turn keeps its clock).
    `clocks_at`: when the clocks that start now start (now if not given).
    """
    engine = game.spec.engine
    Action.objects.bulk_create(log)
    game.snapshot = engine.dump(state)
    if engine.is_over(state):
        game.status = Game.Status.OVER
        game.finished_at = timezone.now()
        result = engine.result(state)
        write_results(game, result, seats)
        stats.count_finished(game, engine.view(state, None), result, seats)
        game_id = game.pk
        transaction.on_commit(lambda: game_ended.send(Game, game_id=game_id))
    at = clocks_at or clocks.now()
    started = clocks.wind(game, state, seats, {a.seat for a in log}, at, before)
    if started and game.turn_based:
        tell_turn(game.pk, [seat.user_id for seat in started])


def tell_turn(game_id: int, user_ids: list[int]) -> None:
    """Once committed: it became these people's move at a turn-based table (turn_came)."""
    transaction.on_commit(lambda: turn_came.send(Game, game_id=game_id, user_ids=user_ids))


# --- bots ---------------------------------------------------------------------------------


class Step(enum.Enum):
    """What one bot step did."""

    STORED = "stored"
    IDLE = "idle"
    MOVED_ON = "moved on"


def bots_after_commit(game_id: int) -> None:
    """Let the bots that must act answer once this change is committed.

    Inline (tests, commands): now, in this thread, each move in its own transaction.
    Otherwise `bots_due` is sent on commit: the runner of this process (games.live.runner)
    makes them, off the request.
    """
    if settings.BOT_MOVES == "inline":
        run_bots(game_id)
    else:
        transaction.on_commit(lambda: bots_due.send(Game, game_id=game_id))


def run_bots(game_id: int) -> int:
    """Bot steps until no bot must act; how many moves were stored."""
    stored = 0
    while (step := bot_step(game_id)) is not Step.IDLE:
        stored += step is Step.STORED
    return stored


def due_bot(game: Game, state: Any, seats: Mapping[int, Seat]) -> Seat | None:
    """The first bot seat that must act now, if any (at a house table, once its deadline came:
    clocks.pace_house_bots)."""
    engine = game.spec.engine
    if game.status != Game.Status.RUNNING or engine.is_over(state):
        return None
    not_before = clocks.now() if is_house_table(game, seats.values()) else None
    for position in engine.active_seats(state):
        seat = seats.get(position)
        if seat is None or not seat.bot or not engine.legal_actions(state, position):
            continue
        if not_before is not None and seat.deadline is not None and seat.deadline > not_before:
            continue
        return seat
    return None


def bot_due(game: Game) -> bool:
    """Whether a bot must act at this game now (it moves after the commit that made it due)."""
    if game.status != Game.Status.RUNNING or game.snapshot is None:
        return False
    return due_bot(game, load_state(game), seated(game)) is not None


def bot_rng(game: Game) -> random.Random:
    """The bots' random stream for the next move: fixed by the seed and the move number."""
    return random.Random(f"{game.seed}:{game.moves}")


def decide(game: Game, state: Any, position: int, level: str) -> Mapping[str, Any]:
    """The bot's action, chosen from its own view only."""
    engine = game.spec.engine
    legal = engine.legal_actions(state, position)
    action: Mapping[str, Any] = game.spec.bots[level](
        engine.view(state, position), legal, bot_rng(game)
    )
    return action


def bot_step(game_id: int) -> Step:
    """One bot (or stand-in) decision: think on a loaded state, then store it if the table has
    not moved."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.RUNNING or game.snapshot is None:
        return Step.IDLE
    state = load_state(game)
    seats = seated(game)
    seat = due_bot(game, state, seats)
    if seat is None:
        return stand_in_step(game, state, seats)
    assert seat.position is not None
    action = decide(game, state, seat.position, seat.bot)
    if store_bot_move(game, state, seats, seat, action):
        return Step.STORED
    return Step.MOVED_ON


@transaction.atomic
def store_bot_move(
    loaded: Game, state: Any, seats: Mapping[int, Seat], seat: Seat, action: Mapping[str, Any]
) -> bool:
    """Lock, check the table is still at the version the bot saw, apply and store its move."""
    game = lock(loaded.pk)
    if game.version != loaded.version:
        return False
    assert seat.position is not None
    state = game.spec.engine.apply_action(state, seat.position, action)
    log = [action_row(game, seat.position, action, user=seat.user, bot=seat.bot)]
    record(game, state, log, seats)
    bump(game, ["status", "snapshot", "moves", "finished_at"])
    return True


# --- stand-ins --------------------------------------------------------------------------

STAND_IN = "stand-in"
"""The Action rows' bot name for a move a stand-in made when a person's time ran out."""


def stand_in_step(game: Game, state: Any, seats: Mapping[int, Seat]) -> Step:
    """If a person's time ran out, a stand-in (the house bot, from that seat's view) moves."""
    seat = clocks.overdue(seats, clocks.now())
    if seat is None:
        return Step.IDLE
    assert seat.position is not None
    action = decide(game, state, seat.position, game.spec.house_bot)
    if store_stand_in(game, state, seats, seat, action):
        return Step.STORED
    return Step.MOVED_ON


MOST_STEPS = 8


def stand_in_turn(
    game: Game, state: Any, seat: Seat, action: Mapping[str, Any]
) -> tuple[Any, list[Action]]:
    """The stand-in's action, and the rest of that turn (a Cakehalla put-back or customer).

    It stops at the end of the seat's turn or pick: when the game no longer waits on the seat,
    or the seat's turn moved on (kind.turn: a Midnight Bakery reveal dealt a new pick).
    """
    kind = game.spec
    engine = kind.engine
    assert seat.position is not None
    position = seat.position
    before = state
    log = []
    for _ in range(MOST_STEPS):
        state = engine.apply_action(state, position, action)
        log.append(action_row(game, position, action, user=seat.user, bot=STAND_IN))
        if engine.is_over(state) or not clocks.turn_goes_on(game, before, state, position):
            break
        action = decide(game, state, position, kind.house_bot)
    return state, log


@transaction.atomic
def store_stand_in(
    loaded: Game, state: Any, seats: Mapping[int, Seat], seat: Seat, action: Mapping[str, Any]
) -> bool:
    """Lock, check the table and the seat's deadline are as the stand-in saw them, and move.

    Every process may find the same deadline due: the version re-check under the row lock lets
    exactly one of them act on it.
    """
    game = lock(loaded.pk)
    if game.version != loaded.version:
        return False
    fresh = Seat.objects.get(pk=seat.pk)
    if fresh.deadline != seat.deadline or fresh.bot or fresh.deadline is None:
        return False
    assert seat.position is not None
    before = state
    state, log = stand_in_turn(game, state, seat, action)
    seat.stand_ins += 1
    seat.save(update_fields=["stand_ins"])
    notice(game, f"Time ran out for {seat.user.username}: a stand-in played {seat.name}'s move.")
    record(game, state, log, seats, before)
    if seat.stand_ins >= settings.STAND_INS_BEFORE_BOT and game.status == Game.Status.RUNNING:
        hand_over(game, state, seats, seat, ABSENT)
    bump(game, ["status", "snapshot", "moves", "finished_at", "notices"])
    return True


def write_results(game: Game, result: Mapping[str, Any], seats: Mapping[int, Seat]) -> None:
    """Scores, places, winners and breakdowns on the seats; then the ratings move (not at an
    unrated, practice table)."""
    scores = list(result["scores"])
    resigned = {p for p, seat in seats.items() if seat.resigned}
    places, winners = archive.placings(scores, set(result.get("winners", [])), resigned)
    for position, seat in seats.items():
        seat.score = scores[position]
        seat.winner = position in winners
        seat.place = places[position]
        seat.breakdown = game.spec.seat_results(result, position)
    Seat.objects.bulk_update(list(seats.values()), ["score", "winner", "place", "breakdown"])
    if game.rated:
        rate_game(game.kind, seats.values(), game_id=game.pk, played_at=game.finished_at)


# --- resign, and seats handed to a bot -----------------------------------------------------

LEFT = "left"
ABSENT = "absent"
DEACTIVATED = "deactivated"
DELETED = "deleted"
HANDED_OVER_WHY = {
    LEFT: "You resigned this game.",
    ABSENT: "Your time ran out three moves in a row.",
    DEACTIVATED: "Your account was deactivated.",
    DELETED: "You deleted your account.",
}
HAND_OVER_NOTICES = {
    LEFT: "{name} left: a {bot} bot plays {seat} to the end.",
    ABSENT: "{name}'s time ran out three moves in a row: a {bot} bot plays {seat} to the end.",
    DEACTIVATED: "{name}'s account was closed: a {bot} bot plays {seat} to the end.",
    # Named by no one: the person is gone, and their deleted name would read as a person's.
    DELETED: "A baker left Bakehouse: a {bot} bot plays {seat} to the end.",
}


def handed_over_why(game: Game, seat: Seat) -> str:
    """Why a house bot plays this seat, told to its person (away at a relaxed table: no clock)."""
    reason = handed_over(seat)
    if reason == ABSENT and game.pace == Game.Pace.RELAXED:
        return "You were away while the table waited on you."
    return HANDED_OVER_WHY[reason]


def handed_over(seat: Seat) -> str:
    """Why a house bot plays this seat (seats resigned before reasons were kept: left)."""
    return (seat.handed_over or LEFT) if seat.resigned else ""


def hand_over(game: Game, state: Any, seats: Mapping[int, Seat], seat: Seat, reason: str) -> None:
    """A house bot takes the seat for the rest of the game (the game row is locked; no bump)."""
    seat.resigned = True
    seat.bot = game.spec.house_bot
    seat.handed_over = reason
    seat.stand_ins = 0
    seat.save(update_fields=["resigned", "bot", "handed_over", "stand_ins"])
    assert seat.position is not None
    clocks.wind(game, state, {seat.position: seat}, set(), clocks.now())
    words = HAND_OVER_NOTICES[reason]
    if reason == ABSENT and game.pace == Game.Pace.RELAXED:  # no clock: gone while it waited
        words = "{name} was away while the table waited: a {bot} bot plays {seat} to the end."
    text = words.format(name=seat.user.username, bot=seat.bot, seat=seat.name)
    notice(game, text)


def check_hand_over(game: Game, seat: Seat, reason: str) -> None:
    """Refuse to hand a seat to a bot when it cannot be."""
    if reason not in HAND_OVER_NOTICES:
        raise ServiceError(f"No seat is handed to a bot for {reason!r}.")
    if seat.game_id != game.pk:
        raise ServiceError("That seat is not at this table.")
    if game.status != Game.Status.RUNNING:
        raise ServiceError(closed_reason(game))
    if seat.bot:
        raise ServiceError("A bot already plays that seat.")


def hand_seat_to_bot(game: Game | int, seat: Seat | int, reason: str) -> Game:
    """A house bot plays a person's seat to the end (left, absent, deactivated): placed last.

    The others are told; the bot moves after the commit. A moderator's deactivation calls this
    for each running game of the account (hand_all_seats_to_bots).
    """
    game = do_hand_seat_to_bot(game, seat, reason)
    bots_after_commit(game.pk)
    return game


@transaction.atomic
def do_hand_seat_to_bot(game: Game | int, seat: Seat | int, reason: str) -> Game:
    """Hand the seat over in one transaction."""
    game = lock(game)
    seat_id = seat if isinstance(seat, int) else seat.pk
    seats = seated(game)
    found = next((s for s in seats.values() if s.pk == seat_id), None)
    if found is None:
        raise ServiceError("That seat is not at this table.")
    check_hand_over(game, found, reason)
    hand_over(game, load_state(game), seats, found, reason)
    bump(game, ["notices"])
    return game


@transaction.atomic
def do_keep_seat_for_bot(game: Game | int, seat: Seat | int, reason: str) -> bool:
    """A house bot plays the seat to the end for this reason, even one it already plays (the
    person left or was away): that seat can then no longer be taken back. Whether a bot took
    the seat just now (it moves after the commit)."""
    game = lock(game)
    seat_id = seat if isinstance(seat, int) else seat.pk
    found = game.seats.filter(pk=seat_id).first()
    if game.status != Game.Status.RUNNING or found is None or found.position is None:
        return False
    if not found.bot:
        do_hand_seat_to_bot(game, found, reason)
        return True
    if (found.resigned, found.handed_over) != (True, reason):
        found.resigned, found.handed_over = True, reason
        found.save(update_fields=["resigned", "handed_over"])
    return False


def hand_all_seats_to_bots(user: User, reason: str = DEACTIVATED) -> list[int]:
    """Every running game where the person still plays: a bot takes over; the games' ids."""
    running = Seat.objects.filter(user=user, game__status=Game.Status.RUNNING, bot="")
    done = []
    for seat in running.exclude(position=None):
        hand_seat_to_bot(seat.game_id, seat.pk, reason)
        done.append(seat.game_id)
    return done


def check_resign(game: Game, user: User) -> Seat:
    """The seat a person may give up now, or a ServiceError."""
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed("You do not sit at this game.")
    if game.status == Game.Status.OPEN:
        raise ServiceError("This game has not started yet.")
    if game.status != Game.Status.RUNNING:
        raise ServiceError(closed_reason(game))
    if seat.resigned:
        raise ServiceError("You have already resigned this game.")
    if seat.bot:
        raise ServiceError("A bot cannot resign.")
    return seat


def resign(game: Game | int, user: User) -> Game:
    """Leave a running game: a house bot plays the seat to the end, which counts as last place."""
    game = do_resign(game, user)
    bots_after_commit(game.pk)
    return game


@transaction.atomic
def do_resign(game: Game | int, user: User) -> Game:
    """Hand the seat to a house bot in one transaction; the bot moves after the commit."""
    game = lock(game)
    seat = check_resign(game, user)
    seats = seated(game)
    assert seat.position is not None
    hand_over(game, load_state(game), seats, seats[seat.position], LEFT)
    bump(game, ["notices"])
    return game


def check_take_back(game: Game, user: User) -> Seat:
    """The seat a person who left (or was away) may take back from the bot, or a ServiceError."""
    seat = game.seats.filter(user=user).first()
    if seat is None or seat.position is None:
        raise NotAllowed("You do not sit at this game.")
    if game.status != Game.Status.RUNNING:
        raise ServiceError(closed_reason(game))
    if not seat.resigned:
        raise ServiceError("You already play your seat.")
    if handed_over(seat) in (DEACTIVATED, DELETED) or not user.is_active:
        raise NotAllowed("This seat cannot be taken back.")
    return seat


@transaction.atomic
def take_seat_back(game: Game | int, user: User) -> Game:
    """A person who left comes back before the end: the bot gives the seat back."""
    game = lock(game)
    position = check_take_back(game, user).position
    assert position is not None
    seats = seated(game)
    seat = seats[position]
    seat.resigned, seat.bot, seat.handed_over, seat.stand_ins = False, "", "", 0
    seat.save(update_fields=["resigned", "bot", "handed_over", "stand_ins"])
    clocks.wind(game, load_state(game), {position: seat}, set(), clocks.now())
    notice(game, f"{user.username} is back and plays {seat.name} again.")
    bump(game, ["notices"])
    return game


# --- per-seat screen state ----------------------------------------------------------------


def check_close_results(game: Game, user: User, seen: int, seats: list[Seat]) -> Seat:
    """The seat among the table's `seats` that may close results up to `seen`, or a
    ServiceError."""
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None or seat.position is None or game.snapshot is None:
        raise NotAllowed("You do not sit at this game.")
    view = game.spec.engine.view(load_state(game), seat.position)
    if not 0 <= seen <= game.spec.results_count(view):
        raise ServiceError("Those results are not out yet.")
    return seat


@transaction.atomic
def close_results(game: Game | int, user: User, seen: int) -> Game | None:
    """Record that a seated player closed the results up to the given count, in all their tabs:
    the game at the new version it made (like every change to a table), or None if they were
    closed already (nothing changed, nothing is announced)."""
    game, seats = lock_with_seats(game)
    seat = check_close_results(game, user, seen, seats)
    if seat.results_seen >= seen:
        return None
    seat.results_seen = seen
    seat.save(update_fields=["results_seen"])
    bump(game, [])
    return game


# --- replay -------------------------------------------------------------------------------


def replay(game: Game) -> Any:
    """The state rebuilt from the stored setup and the Action rows alone (never the snapshot);
    archive.CannotRebuild if today's engine cannot play it again."""
    moves = game.actions.order_by("seq").values_list("seat", "payload")
    return archive.last_state(game.spec.engine, archive.first_state(game), moves)
