"""A player reports another player from a table or a finished game; thin, the service decides."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from games import services
from games.access import AuthedRequest, get_game_or_404
from games.models import Report
from games.services import moderation
from games.services.moves import parse_number


@login_required
@require_http_methods(["GET", "POST"])
def report(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The report form (who, why, a short note); a refused post keeps what was typed."""
    game = get_game_or_404(request, game_id)
    people = moderation.reportable_people(game, request.user)
    chosen = {
        "reported": request.POST.get("reported") or request.GET.get("player", ""),
        "reason": request.POST.get("reason", ""),
        "note": request.POST.get("note", ""),
    }
    status, error = 200, ""
    if request.method == "POST":
        try:
            reported = parse_number(request.POST.get("reported"), "player")
            moderation.report(game, request.user, reported, chosen["reason"], chosen["note"])
        except services.ServiceError as exc:
            status, error = exc.status, str(exc)
        else:
            messages.success(request, gettext("Thank you: a moderator will read your report."))
            return redirect(game)
    context = {
        "game": game,
        "people": people,
        "reasons": Report.Reason.choices,
        "chosen": chosen,
        "error": error,
        "note_chars": moderation.NOTE_CHARS,
        "open": game.status in moderation.REPORTABLE,
    }
    return render(request, "games/report.html", context, status=status)
