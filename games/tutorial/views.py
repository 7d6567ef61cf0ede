"""The tutorial's pages: start or resume a tutorial, and the step its table shows now (the
table's page itself is the core's: it shows the step through {% tutorial_step game %})."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from games import services
from games.access import AuthedRequest, get_game_or_404
from games.tutorial import services as tutorial
from games.web.rules import kind_or_404


@login_required
@require_http_methods(["GET", "POST"])
def learn(request: AuthedRequest, slug: str) -> HttpResponse:
    """A game's tutorial: back to the person's unfinished one, or (posted) a new one dealt."""
    spec = kind_or_404(slug)
    going = tutorial.unfinished(request.user, spec.slug)
    if going is not None:
        return redirect(going)
    if request.method == "POST":
        try:
            game = tutorial.start_tutorial(request.user, spec.slug)
        except services.ServiceError as exc:
            ctx = {"message": str(exc)}
            return render(request, "games/refused.html", ctx, status=exc.status)
        return redirect(game)
    if spec.lesson is None:
        ctx = {"message": gettext("%(game)s has no guided first game yet.") % {"game": spec.name}}
        return render(request, "games/refused.html", ctx, status=404)
    return render(request, "tutorial/learn.html", {"spec": spec})


@require_GET
def step(request: HttpRequest, game_id: int) -> HttpResponse:
    """The tutorial's step for this viewer at the table's current version (204: none)."""
    game = get_game_or_404(request, game_id)
    shown = tutorial.step(game, request.user)
    if shown is None:
        return HttpResponse(status=204)
    ctx = {"step": shown, "game": game}
    return render(request, "tutorial/_step.html", ctx)
