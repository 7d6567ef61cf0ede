"""Watch live: the running tables anyone may watch, best first (the lobby's box and its page)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, F, OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.models import Rating, User
from games.access import live_to_watch
from games.models import Game, Seat
from games.services import presence

# --- watching live games --------------------------------------------------------------------

LOBBY_LIVE = 5
PAGE_LIVE = 50


@dataclass(frozen=True)
class LiveTable:
    """A running table anyone may watch: its players with their ratings, and its watchers."""

    game: Game
    players: list[tuple[User, int | None]]
    spectators: int
    average: float | None


def live_tables(limit: int) -> list[LiveTable]:
    """The running public tables anyone may watch, but those left behind (access.live_to_watch):
    rated games first, the highest average rating first, then practice tables (four queries
    however many tables)."""
    average = (
        Rating.objects.filter(kind=OuterRef("kind"), user__seats__game=OuterRef("pk"))
        .values("kind")
        .annotate(average=Avg("rating"))
        .values("average")
    )
    games = list(
        live_to_watch()
        .annotate(average=Subquery(average))
        .order_by(F("rated").desc(), F("average").desc(nulls_last=True), "-started_at", "-pk")[
            :limit
        ]
    )
    seats: dict[int, list[Seat]] = {g.pk: [] for g in games}
    for seat in Seat.objects.filter(game__in=games).select_related("user"):
        seats[seat.game_id].append(seat)
    users = {s.user_id for ss in seats.values() for s in ss}
    ratings = {
        (r.user_id, r.kind): r.rating
        for r in Rating.objects.filter(user_id__in=users, kind__in={g.kind for g in games})
    }
    present = presence.read_many(g.pk for g in games)
    return [
        LiveTable(
            game=g,
            players=[(s.user, ratings.get((s.user_id, g.kind))) for s in seats[g.pk]],
            spectators=present[g.pk].spectators({s.user_id for s in seats[g.pk]}),
            average=g.average,
        )
        for g in games
    ]


def live_context(live: list[LiveTable], more: bool = False) -> dict[str, object]:
    """The Watch live box: its tables, and whether a rated game is among them (when none is, the
    house table leads, above any practice table)."""
    return {"live": live, "more": more, "rated": any(t.game.rated for t in live)}


@require_GET
def watch_live(request: HttpRequest) -> HttpResponse:
    """Every running table anyone may watch, best first."""
    return render(request, "games/watch/live_page.html", live_context(live_tables(PAGE_LIVE)))
