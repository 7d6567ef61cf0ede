"""A move written down: its Action rows, the snapshot, the clocks wound, the results at the end.

Every move is stored through `record` (a person's, a bot's, a stand-in's, and the deal), then its
version through base.commit_version with what `record` says follows (whose turn came, the end).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import cast

from django.utils import timezone

from accounts.models import User
from accounts.ratings import rate_game
from games.models import Action, Game, Seat
from games.records import archive, stats
from games.services import clocks
from games.services.base import Moved, seats_in_order

MOVE_FIELDS = ("status", "snapshot", "moves", "finished_at")
"""The game row's fields a move changes (saved by commit_version)."""


def seated(game: Game) -> dict[int, Seat]:
    """The seats of a started game by position."""
    return by_position(seats_in_order(game))


def by_position(seats: list[Seat]) -> dict[int, Seat]:
    """These seats (of a started game) by position."""
    return {s.position: s for s in seats if s.position is not None}


def at_locked_row(everyone: list[Seat], game: Game) -> dict[int, Seat]:
    """Seats read before the row was locked (a bot's or stand-in's step, the version re-checked
    since), made to point at the locked row, as stored and handed to the sockets; by position."""
    for seat in everyone:
        seat.game = game
    return by_position(everyone)


def action_row(
    game: Game, position: int, action: Mapping[str, object], *, user: User | None, bot: str
) -> Action:
    """The next Action row of the game (not saved yet)."""
    game.moves += 1
    return Action(game=game, seq=game.moves, seat=position, payload=action, user=user, bot=bot)


def record(
    game: Game,
    state: object,
    log: list[Action],
    seats: Mapping[int, Seat],
    before: object = None,
    clocks_at: datetime | None = None,
) -> Moved:
    """Append the Action rows, save the snapshot, wind the clocks, and the results at the end;
    what follows once committed (whose move came at a turn-based table, the game's end).

    `before`: the state the moves started from (a mover still in the same turn keeps its clock).
    `clocks_at`: when the clocks that start now start (now if not given).
    """
    engine = game.spec.engine
    Action.objects.bulk_create(log)
    game.snapshot = engine.dump(state)
    ended = engine.is_over(state)
    if ended:
        game.status = Game.Status.OVER
        game.finished_at = timezone.now()
        result = engine.result(state)
        write_results(game, result, seats)
        stats.count_finished(game, engine.view(state, None), result, seats)
    at = clocks_at or clocks.now()
    started = clocks.wind(game, state, seats, {a.seat for a in log}, at, before)
    came = tuple(seat.user_id for seat in started) if game.turn_based else ()
    return Moved(turn_came=came, ended=ended)


def write_results(game: Game, result: Mapping[str, object], seats: Mapping[int, Seat]) -> None:
    """Scores, places, winners and breakdowns on the seats; then the ratings move (not at an
    unrated, practice table)."""
    scores = list(cast(list[int], result["scores"]))
    resigned = {p for p, seat in seats.items() if seat.resigned}
    places, winners = archive.placings(
        scores, set(cast(list[int], result.get("winners", []))), resigned
    )
    for position, seat in seats.items():
        seat.score = scores[position]
        seat.winner = position in winners
        seat.place = places[position]
        seat.breakdown = game.spec.seat_results(result, position)
    Seat.objects.bulk_update(list(seats.values()), ["score", "winner", "place", "breakdown"])
    if game.rated:
        rate_game(game.kind, seats.values(), game_id=game.pk, played_at=game.finished_at)
