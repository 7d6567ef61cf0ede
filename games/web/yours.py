"""Your games: the tables a person sits at, their move first, and the next one waiting on them."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.access import AuthedRequest, get_game_or_404
from games.services.yours import your_tables


@login_required
@require_GET
def mine(request: AuthedRequest) -> HttpResponse:
    """Every table the person sits at: where it is their move first, then the others."""
    tables = your_tables(request.user)
    waiting = [t for t in tables if t.waits_on_you]
    return render(request, "games/mine.html", {"your_tables": tables, "waiting": waiting})


@login_required
@require_GET
def next_game(request: AuthedRequest, game_id: int) -> HttpResponse:
    """At a turn-based table the person sits at: the next other table waiting on their move (a
    button once this one no longer waits on them, a plain link while it still does)."""
    game = get_game_or_404(request, game_id)
    tables = your_tables(request.user)
    here = next((t for t in tables if t.game.pk == game.pk), None)
    shown = here is not None and game.turn_based
    waiting = next((t for t in tables if t.your_move and t.game.pk != game.pk), None)
    context = {
        "next_table": waiting if shown else None,
        "game": game,
        "shown": shown,
        "your_move_here": here is not None and here.your_move,
    }
    return render(request, "games/_next_game.html", context)
