"""The only code that changes a game: every change is check_ then do_, in one transaction.

Each public function locks the game row, validates, changes, stores, lets bots act and then
announces the new version to the table's channel group once the transaction commits.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.ratings import rate_game
from games import catalog
from games.engines import IllegalAction
from games.engines.rng import seed_state, shuffled
from games.models import Action, Game, Seat


class ServiceError(Exception):
    """A refused request; the message is a sentence a player can read."""

    status = 400


class NotAllowed(ServiceError):
    """The user may not do this at this table."""

    status = 403


class StaleVersion(ServiceError):
    """The page showed an older version of the table than the one stored."""

    status = 409


def group_name(game_id: int) -> str:
    """The channel group of one table."""
    return f"game_{game_id}"


def announce(game_id: int, version: int) -> None:
    """Tell the table's sockets there is a new version (never a state, never a card)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            group_name(game_id), {"type": "game.updated", "version": version}
        )


def _bump(game: Game, fields: list[str]) -> None:
    game.version += 1
    game.save(update_fields=[*fields, "version"])
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: announce(game_id, version))


def announce_to_user(game_id: int, user_id: int) -> None:
    """Tell one user's sockets at the table to redraw their own board (no version moved)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            group_name(game_id), {"type": "seat.refreshed", "user": user_id}
        )


def closed_reason(game: Game) -> str:
    """Why a table that is no longer open refuses seats and lobby changes."""
    return {
        Game.Status.RUNNING: "This table has already started.",
        Game.Status.OVER: "This game is over.",
        Game.Status.CANCELLED: "The host cancelled this table.",
    }.get(Game.Status(game.status), "This table is not open.")


def _lock(game: Game | int) -> Game:
    pk = game if isinstance(game, int) else game.pk
    return Game.objects.select_for_update().get(pk=pk)


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("position", "joined_at", "pk"))


def load_state(game: Game) -> Any:
    """The engine state of a started game, from its snapshot."""
    if game.snapshot is None:
        raise ServiceError("This game has not started yet.")
    return game.spec.engine.load(game.snapshot)


def seat_of(game: Game, user: Any) -> Seat | None:
    """The user's seat at the table, if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).select_related("user").first()


# --- create -------------------------------------------------------------------------------


def check_create(kind: str, capacity: int, options: Mapping[str, str]) -> catalog.GameSpec:
    """The spec of a valid new table, or a ServiceError."""
    if kind not in {s.slug for s in catalog.available()}:
        raise ServiceError("That game is not on offer.")
    spec = catalog.get(kind)
    if not spec.min_players <= capacity <= spec.max_players:
        raise ServiceError(f"{spec.name} seats {spec.min_players} to {spec.max_players} players.")
    for option in spec.options:
        value = options.get(option.name, option.default)
        if value not in {c for c, _ in option.choices}:
            raise ServiceError(f"{option.label} cannot be {value!r}.")
    return spec


@transaction.atomic
def create_game(
    host: User,
    kind: str,
    capacity: int,
    options: Mapping[str, str] | None = None,
    *,
    private: bool = False,
) -> Game:
    """A new open table with its host seated."""
    chosen = dict(options or {})
    spec = check_create(kind, capacity, chosen)
    opts = {o.name: chosen.get(o.name, o.default) for o in spec.options}
    game = Game.objects.create(
        kind=kind, host=host, capacity=capacity, options=opts, private=private
    )
    Seat.objects.create(game=game, user=host)
    return game


# --- join and leave -----------------------------------------------------------------------


def check_join(game: Game, user: User, invite: str | None) -> None:
    """Refuse a join the table cannot take."""
    if game.status != Game.Status.OPEN:
        raise ServiceError(closed_reason(game))
    if game.private and invite != game.invite:
        raise NotAllowed("This table is private: you need its invite link.")
    if game.seats.filter(user=user).exists():
        raise ServiceError("You already sit at this table.")
    if game.seats.count() >= game.capacity:
        raise ServiceError("Every seat at this table is taken.")


@transaction.atomic
def join(game: Game | int, user: User, invite: str | None = None) -> Seat:
    """Sit the user at an open table."""
    game = _lock(game)
    check_join(game, user, invite)
    seat = Seat.objects.create(game=game, user=user)
    _bump(game, [])
    return seat


def check_leave(game: Game, user: User) -> Seat:
    """The seat a user may leave, or a ServiceError."""
    if game.status == Game.Status.RUNNING:
        raise ServiceError("You cannot leave a game that has started.")
    if game.status != Game.Status.OPEN:
        raise ServiceError(closed_reason(game))
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise ServiceError("You do not sit at this table.")
    if user.pk == game.host_id:
        raise ServiceError("The host cannot leave; the table would have no host.")
    return seat


@transaction.atomic
def leave(game: Game | int, user: User) -> None:
    """Take the user's seat away before the start."""
    game = _lock(game)
    check_leave(game, user).delete()
    _bump(game, [])


# --- bots ---------------------------------------------------------------------------------


def bot_account(level: str, taken: set[int]) -> User:
    """A house bot account of that level that is not already at the table."""
    index = 1
    while True:
        user, _ = User.objects.get_or_create(
            username=f"{level}-bot-{index}", defaults={"is_bot": True}
        )
        if user.pk not in taken:
            if user.has_usable_password():
                user.set_unusable_password()
                user.save(update_fields=["password"])
            return user
        index += 1


def check_host(game: Game, user: User) -> None:
    """Refuse anyone but the host of an open table."""
    if user.pk != game.host_id:
        raise NotAllowed("Only the host can do that.")
    if game.status != Game.Status.OPEN:
        raise ServiceError(closed_reason(game))


@transaction.atomic
def add_bot(game: Game | int, host: User, level: str) -> Seat:
    """Seat a bot of the given level in an empty seat."""
    game = _lock(game)
    check_host(game, host)
    if level not in game.spec.bot_levels:
        raise ServiceError(f"There is no {level!r} bot.")
    taken = set(game.seats.values_list("user_id", flat=True))
    if len(taken) >= game.capacity:
        raise ServiceError("Every seat at this table is taken.")
    seat = Seat.objects.create(game=game, user=bot_account(level, taken), bot=level)
    _bump(game, [])
    return seat


@transaction.atomic
def remove_bot(game: Game | int, host: User, seat_id: int) -> None:
    """Take a bot away from the table."""
    game = _lock(game)
    check_host(game, host)
    seat = game.seats.filter(pk=seat_id).exclude(bot="").first()
    if seat is None:
        raise ServiceError("There is no such bot at this table.")
    seat.delete()
    _bump(game, [])


@transaction.atomic
def cancel(game: Game | int, host: User) -> Game:
    """The host closes an open table: it leaves the lobby and says it was cancelled."""
    game = _lock(game)
    check_host(game, host)
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    _bump(game, ["status", "finished_at"])
    return game


# --- start --------------------------------------------------------------------------------


SEATING_SALT = 0x5EA7_ED_B4_CE_0001


def draw_positions(seed: int, count: int) -> list[int]:
    """The seat position of each joined player, drawn from the game's seed.

    A salted stream, so the public seating tells nothing about the engine's own draws.
    """
    order, _ = shuffled(list(range(count)), seed_state(seed ^ SEATING_SALT))
    return order


def check_start(game: Game, user: User) -> list[Seat]:
    """The seats of a table that may start now, or a ServiceError."""
    check_host(game, user)
    seats = _seats(game)
    if len(seats) < game.spec.min_players:
        raise ServiceError(f"At least {game.spec.min_players} players must sit to start.")
    return seats


@transaction.atomic
def start(game: Game | int, user: User) -> Game:
    """Draw the seats, deal the game and let the bots make their first moves."""
    game = _lock(game)
    seats = check_start(game, user)
    for seat, position in zip(seats, draw_positions(game.seed, len(seats)), strict=True):
        seat.position = position
    Seat.objects.bulk_update(seats, ["position"])
    engine = game.spec.engine
    state = engine.new_game(len(seats), seed=game.seed, options=dict(game.options))
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    _store(game, state, [], {s.position: s for s in seats if s.position is not None})
    _bump(game, ["status", "started_at", "snapshot", "moves", "finished_at"])
    return game


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
        same_moment = (
            moment is not None
            and game.spec.moment is not None
            and state is not None
            and moment == game.spec.moment(game.spec.engine.view(state, seat.position))
        )
        if not same_moment:
            raise StaleVersion("The table moved on while you chose; look again and choose.")
    return seat


@transaction.atomic
def play(
    game: Game | int, user: User, action: dict, version: int | None, moment: str | None = None
) -> Game:
    """Apply a player's action, let the bots answer, store everything; IllegalAction if refused."""
    game = _lock(game)
    state = load_state(game) if game.snapshot is not None else None
    seat = check_play(game, user, version, moment, state)
    if not isinstance(action, dict):
        raise IllegalAction("That is not an action.")
    assert seat.position is not None
    engine = game.spec.engine
    state = engine.apply_action(state, seat.position, action)
    seats = {s.position: s for s in _seats(game) if s.position is not None}
    log = [_action_row(game, seat.position, action, user=user, bot="")]
    _store(game, state, log, seats)
    _bump(game, ["status", "snapshot", "moves", "finished_at"])
    return game


def _action_row(game: Game, position: int, action: dict, *, user: User | None, bot: str) -> Action:
    game.moves += 1
    return Action(game=game, seq=game.moves, seat=position, payload=action, user=user, bot=bot)


def bot_rng(game: Game) -> random.Random:
    """The bots' random stream for the next move: fixed by the seed and the move number."""
    return random.Random(f"{game.seed}:{game.moves}")


def _run_bots(game: Game, state: Any, seats: Mapping[int, Seat], log: list[Action]) -> Any:
    spec = game.spec
    engine = spec.engine
    while not engine.is_over(state):
        moved = False
        for position in engine.active_seats(state):
            seat = seats.get(position)
            if seat is None or not seat.bot:
                continue
            legal = engine.legal_actions(state, position)
            if not legal:
                continue
            choose = spec.bots[seat.bot]
            action = choose(engine.view(state, position), legal, bot_rng(game))
            state = engine.apply_action(state, position, action)
            log.append(_action_row(game, position, action, user=seat.user, bot=seat.bot))
            moved = True
            if engine.is_over(state):
                break
        if not moved:
            break
    return state


def _store(game: Game, state: Any, log: list[Action], seats: Mapping[int, Seat]) -> None:
    engine = game.spec.engine
    state = _run_bots(game, state, seats, log)
    Action.objects.bulk_create(log)
    game.snapshot = engine.dump(state)
    if engine.is_over(state):
        game.status = Game.Status.OVER
        game.finished_at = timezone.now()
        _write_results(game, engine.result(state), seats)


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


def _write_results(game: Game, result: Mapping[str, Any], seats: Mapping[int, Seat]) -> None:
    from games.boards import seat_results

    scores = list(result["scores"])
    resigned = {p for p, seat in seats.items() if seat.resigned}
    places, winners = placings(scores, set(result.get("winners", [])), resigned)
    for position, seat in seats.items():
        seat.score = scores[position]
        seat.winner = position in winners
        seat.place = places[position]
        seat.breakdown = seat_results(game, result, position)
    Seat.objects.bulk_update(list(seats.values()), ["score", "winner", "place", "breakdown"])
    rate_game(game.kind, seats.values())


# --- resign -------------------------------------------------------------------------------


def resign_bot(game: Game) -> str:
    """The house bot level that takes over a resigned seat."""
    levels = game.spec.bot_levels
    return "greedy" if "greedy" in levels else levels[0]


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


@transaction.atomic
def resign(game: Game | int, user: User) -> Game:
    """Give up a running game: a house bot plays the seat to the end, which counts as last place."""
    game = _lock(game)
    seat = check_resign(game, user)
    seat.resigned = True
    seat.bot = resign_bot(game)
    seat.save(update_fields=["resigned", "bot"])
    seats = {s.position: s for s in _seats(game) if s.position is not None}
    _store(game, load_state(game), [], seats)
    _bump(game, ["status", "snapshot", "moves", "finished_at"])
    return game


# --- per-seat screen state ----------------------------------------------------------------


def check_close_results(game: Game, user: User, seen: int) -> Seat:
    """The seat that may close results up to `seen`, or a ServiceError."""
    seat = game.seats.filter(user=user).first()
    if seat is None or seat.position is None or game.snapshot is None:
        raise NotAllowed("You do not sit at this game.")
    from games.boards import results_count

    view = game.spec.engine.view(load_state(game), seat.position)
    if not 0 <= seen <= results_count(game, view):
        raise ServiceError("Those results are not out yet.")
    return seat


@transaction.atomic
def close_results(game: Game | int, user: User, seen: int) -> None:
    """Record that a seated player closed the results up to the given count, in all their tabs."""
    game = _lock(game)
    seat = check_close_results(game, user, seen)
    if seat.results_seen >= seen:
        return
    seat.results_seen = seen
    seat.save(update_fields=["results_seen"])
    game_id, user_id = game.pk, user.pk
    transaction.on_commit(lambda: announce_to_user(game_id, user_id))


# --- replay -------------------------------------------------------------------------------


def replay(game: Game) -> Any:
    """The state rebuilt from the seed and the Action rows alone."""
    engine = game.spec.engine
    players = game.seats.exclude(position=None).count()
    state = engine.new_game(players, seed=game.seed, options=dict(game.options))
    for action in game.actions.order_by("seq"):
        state = engine.apply_action(state, action.seat, action.payload)
    return state
