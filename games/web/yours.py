"""Your games: the tables a person sits at, their move first, and the next one waiting on them."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.access import AuthedRequest, get_game_or_404
from games.services.yours import next_waiting, your_tables


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
    """At a turn-based table that no longer waits on the person: the next one that does."""
    game = get_game_or_404(request, game_id)
    here = next((t for t in your_tables(request.user) if t.game.pk == game.pk), None)
    waiting = None if here is not None and here.your_move else next_waiting(request.user, game.pk)
    shown = here is not None and game.turn_based
    context = {"next_table": waiting if shown else None, "game": game, "shown": shown}
    return render(request, "games/_next_game.html", context)
