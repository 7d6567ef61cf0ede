"""How a view that changes a table answers: the board (or only the regions that moved), a
redirect to the table, or, for a page whose socket is open, an empty 204 with the version the
change made (its socket brings the board); a refusal always with the words why."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from games import services
from games.access import NO_SUCH_TABLE, AuthedRequest, HtmxHttpRequest, get_game_or_404, posted
from games.boards import (
    Sent,
    board_context,
    board_message,
    region_names,
    region_prints,
    render_board,
    render_diff,
)
from games.engines import IllegalAction
from games.models import Game
from games.web.table_page import table_page


def board_response(
    request: HttpRequest,
    game: Game,
    status: int = 200,
    error: str = "",
    shown: Sent | None = None,
) -> HttpResponse:
    """The board partial for this user, with an optional message.

    Given what the page showed (`shown`), only the regions that moved are sent: the page swaps
    each piece in by its id, and the new version comes with them.
    """
    base = game.version
    game.refresh_from_db()
    if shown is not None and set(shown) == set(region_names(game)):
        html, _ = render_diff(game, request.user, shown, base)
    else:
        html = render_board(game, request.user, request)
    if error:
        html = board_message(error) + html
    return HttpResponse(html, status=status)


def shown_on_page(request: HttpRequest, game: Game) -> Sent | None:
    """What the page that posted shows of each region, if it shows the table's current version."""
    if game.snapshot is None or request.POST.get("version") != str(game.version):
        return None
    ctx = board_context(game, request.user)
    return {name: (mark, None) for name, mark in region_prints(game, ctx).items()}


def refused(request: HtmxHttpRequest, game: Game, status: int, message: str) -> HttpResponse:
    """A refused change: the board with the message (HTMX), or for a plain form post (a page
    with no script yet) the table's page as it stands, the words why above its board."""
    if request.htmx:
        return board_response(request, game, status, message)
    game.refresh_from_db()
    return table_page(request, game, refusal=message, status=status)


# Sent by live.js with a tap while the page's socket is open: that socket brings the new board.
LIVE_HEADER = "X-Bakehouse-Live"
# The version a move made, on its empty answer (the page waits for its socket to bring it).
VERSION_HEADER = "X-Bakehouse-Version"


def pushed_to_page(request: HtmxHttpRequest) -> bool:
    """Whether the page that tapped has its socket open (it gets the board from there)."""
    return bool(request.htmx) and request.headers.get(LIVE_HEADER) == "1"


def changes_table(
    fn: Callable[[AuthedRequest, Game], Game | None], *, pushed: bool
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """Run a service on the table; answer with the board (HTMX) or a redirect to the table.

    `pushed`: a page whose socket is open gets an empty 204 on success, with the version the
    change made (the service returns the game), since its socket pushes it the new board anyway
    (rendering it twice cost the server a tenth of a move's work); a refusal always comes with
    the board and the words why.
    """

    @wraps(fn)
    def view(request: AuthedRequest, game_id: int) -> HttpResponse:
        game = get_game_or_404(request, game_id)
        quiet = pushed and pushed_to_page(request)
        shown = shown_on_page(request, game) if request.htmx and not quiet else None
        try:
            changed = fn(request, game)
        except services.ServiceError as exc:
            return refused(request, game, exc.status, str(exc))
        except IllegalAction as exc:
            return refused(request, game, 400, str(exc))
        if quiet and changed is not None:
            return HttpResponse(status=204, headers={VERSION_HEADER: str(changed.version)})
        if request.htmx:
            return board_response(request, game, shown=shown)
        return redirect(game)

    return view


def table_change(
    fn: Callable[[AuthedRequest, Game], None],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """A change to the table (a signed-in person's POST: access.posted) answered with the board
    (or a redirect to the table)."""
    return posted(changes_table(fn, pushed=False))


def table_move(
    fn: Callable[[AuthedRequest, Game], Game | None],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """A move, or a change its socket pushes like one (its service returns the game it changed,
    None if nothing changed): like a table change, but a live page gets its board from its
    socket."""
    return posted(changes_table(fn, pushed=True))


def seat_move(
    fn: Callable[[AuthedRequest, Game | int], Game | None],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """A move only a seated person can make (a pick, closing results): a table move, but from
    a live page the service finds the table by its id in its own locked read, which also finds
    the seat, so a made move reads the table once, as a move on the socket does. Only a refusal
    reads it again, through the access check, so a stranger learns nothing of a private table
    (404) and a seated person gets the board with the words why."""
    as_table_move = changes_table(fn, pushed=True)

    @wraps(fn)
    def view(request: AuthedRequest, game_id: int) -> HttpResponse:
        if not pushed_to_page(request):
            return as_table_move(request, game_id)
        try:
            changed = fn(request, game_id)
        except Game.DoesNotExist as exc:
            raise Http404(NO_SUCH_TABLE) from exc
        except services.ServiceError as exc:
            return refused(request, get_game_or_404(request, game_id), exc.status, str(exc))
        except IllegalAction as exc:
            return refused(request, get_game_or_404(request, game_id), 400, str(exc))
        if changed is None:
            return board_response(request, get_game_or_404(request, game_id))
        return HttpResponse(status=204, headers={VERSION_HEADER: str(changed.version)})

    return posted(view)
