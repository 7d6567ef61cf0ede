"""Playing a game: moves, bots, results, resigning, closing results, replay."""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.ratings import rate_game
from games import archive, stats, worker
from games.engines import IllegalAction
from games.models import Action, Game, Seat
from games.services.base import (
    NotAllowed,
    ServiceError,
    StaleVersion,
    announce_to_user,
    bump,
    closed_reason,
    load_state,
    lock,
    seats_in_order,
)

# --- play ---------------------------------------------------------------------------------


def check_play(
    game: Game, user: User, version: int | None, moment: str | None, state: Any = None
) -> Seat:
    """The seat that may act now, or a ServiceError.

    A page that showed an older version is stale, unless the game says the seat's moment has
    not changed since (in Midnight Bakery a rival locking a pick does not change your batch).
    """
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed("You do not sit at this game.")
    if game.status == Game.Status.OPEN:
        raise ServiceError("This game has not started yet.")
    if game.status != Game.Status.RUNNING or seat.position is None:
        raise StaleVersion(closed_reason(game))
    if seat.resigned:
        raise NotAllowed("You resigned this game; a house bot plays your seat.")
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
    action: dict[str, Any],
    version: int | None,
    moment: str | None = None,
) -> Game:
    """Apply a player's action and store it; the bots answer after the commit."""
    game = do_play(game, user, action, version, moment)
    bots_after_commit(game.pk)
    return game


@transaction.atomic
def do_play(
    game: Game | int, user: User, action: dict[str, Any], version: int | None, moment: str | None
) -> Game:
    """The player's action in one transaction; IllegalAction if refused."""
    game = lock(game)
    state = load_state(game) if game.snapshot is not None else None
    seat = check_play(game, user, version, moment, state)
    if not isinstance(action, dict):
        raise IllegalAction("That is not an action.")
    assert seat.position is not None
    state = game.spec.engine.apply_action(state, seat.position, action)
    log = [action_row(game, seat.position, action, user=user, bot="")]
    record(game, state, log, seated(game))
    bump(game, ["status", "snapshot", "moves", "finished_at"])
    return game


def seated(game: Game) -> dict[int, Seat]:
    """The seats of a started game by position."""
    return {s.position: s for s in seats_in_order(game) if s.position is not None}


def action_row(
    game: Game, position: int, action: dict[str, Any], *, user: User | None, bot: str
) -> Action:
    """The next Action row of the game (not saved yet)."""
    game.moves += 1
    return Action(game=game, seq=game.moves, seat=position, payload=action, user=user, bot=bot)


def record(game: Game, state: Any, log: list[Action], seats: Mapping[int, Seat]) -> None:
    """Append the Action rows, save the snapshot, and the results at the end."""
    engine = game.spec.engine
    Action.objects.bulk_create(log)
    game.snapshot = engine.dump(state)
    if engine.is_over(state):
        game.status = Game.Status.OVER
        game.finished_at = timezone.now()
        result = engine.result(state)
        write_results(game, result, seats)
        stats.count_finished(game, engine.view(state, None), result, seats)


# --- bots ---------------------------------------------------------------------------------


class Step(enum.Enum):
    """What one bot step did."""

    STORED = "stored"
    IDLE = "idle"
    MOVED_ON = "moved on"


def bots_after_commit(game_id: int) -> None:
    """Let the bots that must act answer once this change is committed.

    Inline (tests, commands): now, in this thread, each move in its own transaction.
    Otherwise the worker of this process makes them, off the request.
    """
    if settings.BOT_MOVES == "inline":
        run_bots(game_id)
    else:
        transaction.on_commit(lambda: worker.hint(game_id))


def run_bots(game_id: int) -> int:
    """Bot steps until no bot must act; how many moves were stored."""
    stored = 0
    while (step := bot_step(game_id)) is not Step.IDLE:
        stored += step is Step.STORED
    return stored


def due_bot(game: Game, state: Any, seats: Mapping[int, Seat]) -> Seat | None:
    """The first bot seat that must act now, if any."""
    engine = game.spec.engine
    if game.status != Game.Status.RUNNING or engine.is_over(state):
        return None
    for position in engine.active_seats(state):
        seat = seats.get(position)
        if seat is not None and seat.bot and engine.legal_actions(state, position):
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


def decide(game: Game, state: Any, position: int, level: str) -> dict[str, Any]:
    """The bot's action, chosen from its own view only."""
    engine = game.spec.engine
    legal = engine.legal_actions(state, position)
    return game.spec.bots[level](engine.view(state, position), legal, bot_rng(game))


def bot_step(game_id: int) -> Step:
    """One bot decision: think on a loaded state, then store it if the table has not moved."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.RUNNING or game.snapshot is None:
        return Step.IDLE
    state = load_state(game)
    seats = seated(game)
    seat = due_bot(game, state, seats)
    if seat is None:
        return Step.IDLE
    assert seat.position is not None
    action = decide(game, state, seat.position, seat.bot)
    if store_bot_move(game, state, seats, seat, action):
        return Step.STORED
    return Step.MOVED_ON


@transaction.atomic
def store_bot_move(
    loaded: Game, state: Any, seats: Mapping[int, Seat], seat: Seat, action: dict[str, Any]
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


def placings(
    scores: list[int], winners: set[int], resigned: set[int]
) -> tuple[list[int], set[int]]:
    """Each seat's place and the winners: a tie shares a place, resigned seats share the last.

    The others keep the engine's order among themselves; if every winner resigned, the best
    of the others win.
    """
    stayed = [p for p in range(len(scores)) if p not in resigned]
    won = winners - resigned

    def place(position: int) -> int:
        mine = scores[position]
        return 1 + sum(
            1
            for p in stayed
            if scores[p] > mine or (scores[p] == mine and p in won and position not in won)
        )

    places = [place(p) if p not in resigned else len(stayed) + 1 for p in range(len(scores))]
    if not won and resigned:
        won = {p for p in stayed if places[p] == 1}
    return places, won


def write_results(game: Game, result: Mapping[str, Any], seats: Mapping[int, Seat]) -> None:
    """Scores, places, winners and breakdowns on the seats; then the ratings move."""
    scores = list(result["scores"])
    resigned = {p for p, seat in seats.items() if seat.resigned}
    places, winners = placings(scores, set(result.get("winners", [])), resigned)
    for position, seat in seats.items():
        seat.score = scores[position]
        seat.winner = position in winners
        seat.place = places[position]
        seat.breakdown = game.spec.seat_results(result, position)
    Seat.objects.bulk_update(list(seats.values()), ["score", "winner", "place", "breakdown"])
    rate_game(game.kind, seats.values(), game_id=game.pk, played_at=game.finished_at)


# --- resign -------------------------------------------------------------------------------


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
    """Give up a running game: a house bot plays the seat to the end, which counts as last place."""
    game = do_resign(game, user)
    bots_after_commit(game.pk)
    return game


@transaction.atomic
def do_resign(game: Game | int, user: User) -> Game:
    """Hand the seat to a house bot in one transaction; the bot moves after the commit."""
    game = lock(game)
    seat = check_resign(game, user)
    seat.resigned = True
    seat.bot = game.spec.house_bot
    seat.save(update_fields=["resigned", "bot"])
    bump(game, [])
    return game


# --- per-seat screen state ----------------------------------------------------------------


def check_close_results(game: Game, user: User, seen: int) -> Seat:
    """The seat that may close results up to `seen`, or a ServiceError."""
    seat = game.seats.filter(user=user).first()
    if seat is None or seat.position is None or game.snapshot is None:
        raise NotAllowed("You do not sit at this game.")
    view = game.spec.engine.view(load_state(game), seat.position)
    if not 0 <= seen <= game.spec.results_count(view):
        raise ServiceError("Those results are not out yet.")
    return seat


@transaction.atomic
def close_results(game: Game | int, user: User, seen: int) -> None:
    """Record that a seated player closed the results up to the given count, in all their tabs."""
    game = lock(game)
    seat = check_close_results(game, user, seen)
    if seat.results_seen >= seen:
        return
    seat.results_seen = seen
    seat.save(update_fields=["results_seen"])
    game_id, user_id = game.pk, user.pk
    transaction.on_commit(lambda: announce_to_user(game_id, user_id))


# --- replay -------------------------------------------------------------------------------


def replay(game: Game) -> Any:
    """The state rebuilt from the stored setup and the Action rows alone (never the snapshot);
    archive.CannotRebuild if today's engine cannot play it again."""
    moves = game.actions.order_by("seq").values_list("seat", "payload")
    return archive.last_state(game.spec.engine, archive.first_state(game), moves)
