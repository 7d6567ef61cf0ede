"""Past games: the history list, move-by-move replays of finished games, and site stats."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.core.paginator import Paginator
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounts.models import User
from games import catalog
from games.access import HtmxHttpRequest, get_game_or_404
from games.models import Action, Game, Seat
from games.records import archive, history, stats
from games.web.errors import NO_SUCH_GAME, NO_SUCH_PERSON
from games.web.replay import (
    Replay,
    ReplayBroken,
    ReplayUnavailable,
    draw_frame,
    eyes_of,
    frame_context,
)

HISTORY_PAGE = 20
EXPORT_CHUNK = 50

IN_TOURNAMENT = ("tournament_table__tournament", "tournament_table__round")
"""A game's tournament, if it was played in one: games/tournaments links a game by its own
Table row (one to one, `Game.tournament_table`), read here with the game in the same query and
shown by the tournaments' {% tournament_of game %}."""


def with_tournaments(games: QuerySet[Game], only: bool = False) -> QuerySet[Game]:
    """The games with the tournament each was played in (no query more); `only`: just those."""
    if only:
        games = games.filter(tournament_table__isnull=False)
    return games.select_related(*IN_TOURNAMENT)


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
    tournament = "1" if request.GET.get("tournament") == "1" else ""
    games = history.finished_games(request.user, kind=kind, player=player)
    games = with_tournaments(games, only=bool(tournament))
    page = Paginator(games, HISTORY_PAGE).get_page(request.GET.get("page"))
    asked = (("game", kind), ("player", player), ("tournament", tournament))
    query = urlencode({k: v for k, v in asked if v})
    ctx = {
        "page": page,
        "kind": kind,
        "player": player,
        "tournament": tournament,
        "query": query,
        "games": catalog.available(),
    }
    return part_or_page(request, "games/history_list.html", "games/history.html", ctx)


def part_or_page(
    request: HtmxHttpRequest, part: str, page: str, ctx: Mapping[str, object]
) -> HttpResponse:
    """The part an HTMX request swaps in (a list's page, a replay's frame), else the whole page
    around it."""
    return render(request, part if request.htmx else page, ctx)


@require_GET
def replay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A finished game move by move; a running one answers 404 until it ends."""
    game = get_game_or_404(request, game_id)
    try:
        rebuilt = Replay.of(game)
    except ReplayUnavailable as exc:
        broken = isinstance(exc, ReplayBroken)
        ctx = {"game": game, "why": str(exc), "broken": broken}
        return render(request, "games/replay_unavailable.html", ctx, status=404)
    n = rebuilt.clamp(page_number(request.GET.get("move")))
    ctx = draw_frame(frame_context(rebuilt, n, eyes_of(rebuilt, request.GET.get("eyes"))), request)
    return part_or_page(request, "games/replay/_frame.html", "games/replay.html", ctx)


@require_GET
def export_game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A finished game as JSON: rules version, options, setup, seed, seats, every action."""
    game = get_game_or_404(request, game_id)
    if not archive.exportable(game):
        why = gettext("Only finished games are exported: a running game still hides its cards.")
        return JsonResponse({"error": why}, status=404)
    response = JsonResponse(archive.export_game(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="bakehouse-game-{game.pk}.json"'
    return response


def export_ids(games: QuerySet[Game]) -> list[int]:
    """The games to export, in their order: ids only, so a long history costs little to hold."""
    return list(games.values_list("pk", flat=True))


def export_chunk(ids: Sequence[int]) -> str:
    """These games' exports, one a line, in this order (three queries for the chunk)."""
    found = Game.objects.filter(pk__in=ids).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user")),
        Prefetch("actions", queryset=Action.objects.order_by("seq")),
    )
    by_id = {game.pk: game for game in found}
    lines = []
    for pk in ids:
        game = by_id.get(pk)
        if game is not None:  # gone since the ids were read
            record = archive.export(game, list(game.seats.all()), list(game.actions.all()))
            lines.append(json.dumps(record) + "\n")
    return "".join(lines)


def export_lines(games: QuerySet[Game]) -> Iterator[str]:
    """The exports, EXPORT_CHUNK games at a time, each chunk read when the last one is sent."""
    ids = export_ids(games)
    for start in range(0, len(ids), EXPORT_CHUNK):
        yield export_chunk(ids[start : start + EXPORT_CHUNK])


async def export_lines_async(games: QuerySet[Game]) -> AsyncIterator[str]:
    """export_lines for an ASGI server, which buffers a sync iterator whole: each chunk read in
    a thread while the event loop sends the last."""
    ids = await sync_to_async(export_ids)(games)
    for start in range(0, len(ids), EXPORT_CHUNK):
        yield await sync_to_async(export_chunk)(ids[start : start + EXPORT_CHUNK])


@require_GET
def player_games(request: HtmxHttpRequest, username: str) -> StreamingHttpResponse:
    """A person's finished games that this user may see, oldest first, one export per line."""
    if "\x00" in username:
        raise Http404(NO_SUCH_PERSON)
    person = get_object_or_404(User, username=username)
    sat = Seat.objects.filter(user=person).values("game_id")
    games = history.visible_to(
        Game.objects.filter(status=Game.Status.OVER, pk__in=sat), request.user
    )
    games = games.order_by("finished_at", "pk")
    lines = export_lines_async(games) if isinstance(request, ASGIRequest) else export_lines(games)
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Content-Disposition"] = f'inline; filename="{person.username}-games.ndjson"'
    return response


@require_GET
def game_stats(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One game's charts, drawn on the server from counters kept as games end."""
    if slug not in {s.slug for s in catalog.available()}:
        raise Http404(NO_SUCH_GAME)
    spec = catalog.get(slug)
    return render(request, "stats_game.html", {"spec": spec, **stats.game_charts(slug)})


@require_GET
def site_stats(request: HtmxHttpRequest) -> HttpResponse:
    """Totals: games per kind, running now, players, the most active people this week."""
    return render(request, "stats.html", stats.totals())
