"""Past games: the history list, move-by-move replays of finished games, and site stats."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from games import catalog, history, stats
from games.replay import Replay, ReplayUnavailable, frame_context
from games.views import HtmxHttpRequest, get_game_or_404

HISTORY_PAGE = 20


def page_number(raw: str | None) -> int:
    """A page or move number from the query string; 0 when missing or not a number."""
    try:
        return int(raw or 0)
    except ValueError:
        return 0


@require_GET
def history_list(request: HtmxHttpRequest) -> HttpResponse:
    """Finished games, newest first, filtered by game and by player; the list alone for HTMX."""
    kind = request.GET.get("game", "")
    if kind not in {s.slug for s in catalog.available()}:
        kind = ""
    # A NUL byte is no part of any name, and PostgreSQL refuses it in a query.
    player = request.GET.get("player", "").replace("\x00", "").strip()
    games = history.finished_games(request.user, kind=kind, player=player)
    page = Paginator(games, HISTORY_PAGE).get_page(request.GET.get("page"))
    query = urlencode({k: v for k, v in (("game", kind), ("player", player)) if v})
    ctx = {
        "page": page,
        "kind": kind,
        "player": player,
        "query": query,
        "games": catalog.available(),
    }
    if request.htmx:
        return render(request, "games/history_list.html", ctx)
    return render(request, "games/history.html", ctx)


@require_GET
def replay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A finished game move by move; a running one answers 404 until it ends."""
    game = get_game_or_404(request, game_id)
    try:
        rebuilt = Replay.of(game)
    except ReplayUnavailable as exc:
        return render(
            request, "games/replay_unavailable.html", {"game": game, "why": str(exc)}, status=404
        )
    n = rebuilt.clamp(page_number(request.GET.get("move")))
    ctx = frame_context(rebuilt, n)
    if request.htmx:
        return render(request, "games/replay/_frame.html", ctx)
    return render(request, "games/replay.html", ctx)


@require_GET
def game_stats(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One game's charts, drawn on the server from counters kept as games end."""
    if slug not in {s.slug for s in catalog.available()}:
        raise Http404("No such game.")
    spec = catalog.get(slug)
    return render(request, "stats_game.html", {"spec": spec, **stats.game_charts(slug)})


@require_GET
def site_stats(request: HtmxHttpRequest) -> HttpResponse:
    """Totals: games per kind, running now, players, the most active people this week."""
    return render(request, "stats.html", stats.totals())
