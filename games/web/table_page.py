"""A table's whole page (its board and what sits around it), as a visit draws it and as a plain
form post that was refused draws it again, with the words why above the board."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from games import services
from games.boards import epoch_ms, render_board, shared
from games.boards.chat import chat_context
from games.models import Game
from games.web.rules import summary_templates


def table_page(
    request: HttpRequest, game: Game, *, refusal: str = "", hint: str = "", status: int = 200
) -> HttpResponse:
    """The table's page for this person; `refusal`: why their last tap changed nothing, `hint`:
    the hint they asked for (a page with no script yet posts its forms as plain forms, and reads
    the answer here)."""
    seats_and_state = shared.at_version(game)  # one read of the seats for board and chat
    board = render_board(game, request.user, request, seats_and_state)
    ctx = {
        "game": game,
        "board": board,
        "refusal": refusal,
        "hint": hint,
        # A guided table's step (the tutorial's tag in the page) says what to press instead.
        "hints": not game.guided
        and services.offers_hints(game, request.user, seats_and_state.seats),
        "hints_on": services.hints_on(game, seats_and_state.seats),
        # No chat lines read while the table's chat never had one, nor whom the viewer muted
        # while they never muted anyone (both rows are read for this request).
        "chat": chat_context(
            game,
            request.user,
            seats_and_state.seats,
            chatted=game.chatted,
            muting=getattr(request.user, "muted_someone", False),
        ),
        "server_now": epoch_ms(timezone.now()),
        "rules_summary": summary_templates(game.spec.slug),
        "seated": any(s.user_id == request.user.pk for s in seats_and_state.seats),
        # "Round 1 of Sunday Swiss": read once a version for all the table's pages (shared.Event).
        "event": seats_and_state.played_for(),
        "badge_poll": 0,  # the table's socket pushes the menu's badge (notifications/badge.py)
    }
    return render(request, "games/table.html", ctx, status=status)
