"""A table's whole page (its board and what sits around it), as a visit draws it and as a plain
form post that was refused draws it again, with the words why above the board."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.boards import render_board, shared
from games.boards.page import page_context
from games.models import Game


def table_page(
    request: HttpRequest, game: Game, *, refusal: str = "", hint: str = "", status: int = 200
) -> HttpResponse:
    """The table's page for this person; `refusal`: why their last tap changed nothing, `hint`:
    the hint they asked for (a page with no script yet posts its forms as plain forms, and reads
    the answer here)."""
    seats_and_state = shared.at_version(game)  # one read of the seats for board and chat
    board = render_board(game, request.user, request, seats_and_state)
    # No chat lines read while the table's chat never had one, nor whom the viewer muted while
    # they never muted anyone (both rows are read for this request).
    muting = getattr(request.user, "muted_someone", False)
    ctx = page_context(
        game, request.user, seats_and_state, board, chatted=game.chatted, muting=muting
    )
    ctx.update(
        refusal=refusal,
        hint=hint,
        badge_poll=0,  # the table's socket pushes the menu's badge (notifications/badge.py)
    )
    return render(request, "games/table.html", ctx, status=status)
