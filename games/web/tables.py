"""A table's pages: the table (its waiting room, then its board), the board as the polling
fallback asks for it, and the thin views that change the table (seats, bots, the start, moves,
resigning, rematches, a practice table's hint). How each change is answered is
games/web/table_changes.py; the lobby is games/web/lobby.py, the chat games/web/chat.py."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.access import AuthedRequest, HtmxHttpRequest, get_game_or_404
from games.boards import render_board
from games.models import Game
from games.services.moves import close_posted, parse_number, play_posted
from games.web.table_changes import seat_move, table_change, table_move
from games.web.table_page import table_page


@require_GET
def table(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The table: the waiting room before the start, the board after."""
    game = get_game_or_404(request, game_id)
    if request.htmx:
        return HttpResponse(render_board(game, request.user, request))
    return table_page(request, game)


@require_GET
def board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board partial if the table moved past the given version (the polling fallback)."""
    game = get_game_or_404(request, game_id)
    try:
        since = int(request.GET.get("version", "-1"))
    except ValueError:
        since = -1
    if since == game.version:
        return HttpResponse(status=204)
    return HttpResponse(render_board(game, request.user, request))


@table_move
def join(request: AuthedRequest, game: Game) -> Game:
    """Take a free seat."""
    invite = request.POST.get("invite") or request.GET.get("invite")
    return services.join(game, request.user, invite).game


@table_move
def leave(request: AuthedRequest, game: Game) -> Game:
    """Give up your seat before the start."""
    return services.leave(game, request.user)


@table_move
def add_bot(request: AuthedRequest, game: Game) -> Game:
    """The host seats a bot."""
    return services.add_bot(game, request.user, request.POST.get("level", "")).game


@table_move
def remove_bot(request: AuthedRequest, game: Game) -> Game:
    """The host sends a bot away."""
    seat_id = parse_number(request.POST.get("seat"), "seat")
    if seat_id is None:
        raise services.ServiceError(gettext("Which bot?"))
    return services.remove_bot(game, request.user, seat_id)


@table_change
def cancel(request: AuthedRequest, game: Game) -> None:
    """The host closes the table before it starts."""
    services.cancel(game, request.user)


@table_move
def start(request: AuthedRequest, game: Game) -> Game:
    """The host starts the game."""
    return services.start(game, request.user)


@table_change
def resign(request: AuthedRequest, game: Game) -> None:
    """Give up a running game; the form's confirm field is the confirm step."""
    if request.POST.get("confirm") != "yes":
        # A bare post (a stray click, a replayed request) must not end someone's game.
        raise services.ServiceError(gettext("Confirm that you want to resign."))
    services.resign(game, request.user)


@table_change
def rematch(request: AuthedRequest, game: Game) -> None:
    """Play again: offer a rematch at a finished game, or say yes to the one offered."""
    user = request.user
    if game.status == Game.Status.OPEN and game.rematch_of_id is not None:
        services.accept_rematch(game, user)
    else:
        services.rematch(game, user)


@table_change
def decline_rematch(request: AuthedRequest, game: Game) -> None:
    """Say no to a rematch, from its own table or from the finished game's."""
    if game.status == Game.Status.OPEN and game.rematch_of_id is not None:
        offered: Game | None = game
    else:
        offered = services.current_rematch(game) if game.status == Game.Status.OVER else None
    if offered is None:
        raise services.ServiceError(gettext("No rematch is on offer at this table."))
    services.decline_rematch(offered, request.user)


@table_change
def take_back(request: AuthedRequest, game: Game) -> None:
    """Come back to a game you left: the bot gives your seat back."""
    services.take_seat_back(game, request.user)


@seat_move
def play(request: AuthedRequest, game: Game | int) -> Game:
    """Make a move; a stale page gets 409, an illegal move 400, both with the board."""
    return play_posted(game, request.user, request.POST)


@seat_move
def close_results(request: AuthedRequest, game: Game | int) -> Game | None:
    """Back to the ovens: close the results you have read. A live page gets them closed from its
    socket, as every tab of yours does; results that were closed already come back with the
    board (a push that never came is healed by the next tap)."""
    return close_posted(game, request.user, request.POST)


HINT_LINES = {"board": "board-hint", "sheet": "sheet-hint"}


def hint_html(text: str, *, version: int = 0, refused: bool = False, line: str = "board") -> str:
    """The hint line beside the board (outside the live board, so pushes never redraw it), or in
    the sheet that covers it (a Cakehalla put-back); the page clears it once its board is past
    `version`."""
    at = HINT_LINES.get(line, HINT_LINES["board"])
    if refused:
        return format_html('<p id="{}" class="message error" role="alert">{}</p>', at, text)
    shown = '<p id="{}" class="board-hint" role="status" data-version="{}">{}</p>'
    return format_html(shown, at, version, text)


@login_required
@require_POST
def suggest(request: AuthedRequest, game_id: int) -> HttpResponse:
    """A practice table's hint: the strongest bot's move from your own view, and why. It changes
    nothing; a rated table, a watcher, or a seat with no move to make is refused in words. A
    plain post (a page with no script yet) gets the table's page with the hint or the words."""
    game = get_game_or_404(request, game_id)
    line = request.POST.get("line", "board")  # the sheet's own button answers into the sheet
    try:
        hint = services.suggest(game, request.user)
    except services.ServiceError as exc:
        if not request.htmx:
            return table_page(request, game, refusal=str(exc), status=exc.status)
        return HttpResponse(hint_html(str(exc), refused=True, line=line), status=exc.status)
    said = gettext("Suggested: %(move)s Why: %(why)s") % {"move": hint.words, "why": hint.why}
    if not request.htmx:
        return table_page(request, game, hint=said)
    return HttpResponse(hint_html(said, version=hint.version, line=line))
