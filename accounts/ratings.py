"""Ratings: each finished game moves its players' openskill (Plackett-Luce) ratings.

Called from the game services in the transaction that writes the results, so a game and the
ratings it moved are stored together or not at all. accounts imports no game code: the games
hand in what a rating needs (their seats as Placed; a rebuild's finished games as Finished,
read by games/records/ratings.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Protocol

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import DISPLAY_BASE, DISPLAY_SCALE, Rating, RatingPoint


class Placed(Protocol):
    """What rating needs of a seat: who sat there, their place and whether they won."""

    user_id: int
    place: int | None
    winner: bool


@cache
def model() -> PlackettLuce:
    """The rating model (default openskill parameters: mu 25, sigma 25/3)."""
    return PlackettLuce()


def display(ordinal: float) -> int:
    """The ordinal on the displayed scale (a new player shows 1500)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal)


def new_rating(user_id: int, kind: str) -> Rating:
    """An unsaved rating at the model's starting values."""
    start = model().rating()
    ordinal = start.ordinal()
    return Rating(
        user_id=user_id,
        kind=kind,
        mu=start.mu,
        sigma=start.sigma,
        ordinal=ordinal,
        rating=display(ordinal),
    )


def _ratings_for(kind: str, user_ids: Sequence[int]) -> dict[int, Rating]:
    """The players' ratings at this kind, locked, created where missing (in user id order)."""
    Rating.objects.bulk_create(
        [new_rating(uid, kind) for uid in sorted(user_ids)], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(kind=kind, user_id__in=user_ids)
    return {r.user_id: r for r in rows.order_by("user_id")}


def ranks(placed: Sequence[Placed]) -> list[float]:
    """Each seat's rank by its place; a resigned seat ranks below everyone who stayed."""
    stayed = [s.place or 0 for s in placed if not getattr(s, "resigned", False)]
    last = float(max(stayed, default=0) + 1)
    return [last if getattr(s, "resigned", False) else float(s.place or 0) for s in placed]


@transaction.atomic
def rate_game(
    kind: str,
    seats: Iterable[Placed],
    *,
    game_id: int | None = None,
    played_at: datetime | None = None,
) -> list[Rating]:
    """Move the ratings of a finished game's players by their places (a tie shares a rank).

    With the game's id, each player's new rating is kept as a point of their rating history;
    `played_at` (when the game ended, else now) is the point's time and the rating's last game.
    """
    placed = sorted((s for s in seats if s.place is not None), key=lambda s: s.user_id)
    if len(placed) < 2:
        return []
    current = _ratings_for(kind, [s.user_id for s in placed])
    pl = model()
    teams = [[pl.rating(mu=current[s.user_id].mu, sigma=current[s.user_id].sigma)] for s in placed]
    moved = pl.rate(teams, ranks=ranks(placed))
    out = []
    now = timezone.now()
    played_at = played_at or now
    for seat, (after,) in zip(placed, moved, strict=True):
        row = current[seat.user_id]
        row.mu, row.sigma = after.mu, after.sigma
        row.ordinal = after.ordinal()
        row.rating = display(row.ordinal)
        row.games += 1
        row.wins += 1 if seat.winner else 0
        row.updated_at = now
        row.last_played_at = played_at
        out.append(row)
    fields = ["mu", "sigma", "ordinal", "rating", "games", "wins", "updated_at", "last_played_at"]
    Rating.objects.bulk_update(out, fields)
    if game_id is not None:
        RatingPoint.objects.bulk_create(
            RatingPoint(
                user_id=r.user_id, kind=kind, game_id=game_id, rating=r.rating, at=played_at
            )
            for r in out
        )
    return out


@dataclass(frozen=True)
class Finished:
    """A finished rated game as a rebuild reads it: its kind, id, end and seats."""

    kind: str
    game_id: int
    finished_at: datetime | None
    seats: Sequence[Placed]


@transaction.atomic
def rebuild(finished: Iterable[Finished], kind: str | None = None) -> int:
    """Recompute ratings from scratch (every kind's, or one kind's) over these finished rated
    games, given in the order they ended; how many."""
    ratings = Rating.objects.all()
    points = RatingPoint.objects.all()
    if kind is not None:
        ratings = ratings.filter(kind=kind)
        points = points.filter(kind=kind)
    ratings.delete()
    points.delete()
    count = 0
    for game in finished:
        rate_game(game.kind, game.seats, game_id=game.game_id, played_at=game.finished_at)
        count += 1
    return count
