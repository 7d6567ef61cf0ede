"""The lobby's "Find a game" section: the forms, the waiting panel, who is looking. Thin views."""

from __future__ import annotations

import logging

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.access import AuthedRequest, HtmxHttpRequest
from games.pairing import services
from games.pairing.forms import LookForm
from games.pairing.panels import game_lines, section_context
from games.services import ServiceError

logger = logging.getLogger(__name__)


def section(request: HttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    """The section drawn anew (HTMX), or back to the lobby (a plain post), or the refusal."""
    if getattr(request, "htmx", False):
        ctx = section_context(request.user, error)
        return render(request, "pairing/_find.html", ctx, status=status)
    if error:
        return render(request, "games/refused.html", {"message": error}, status=status)
    return redirect("lobby")


@require_GET
def find(request: HtmxHttpRequest) -> HttpResponse:
    """The section as it stands (the page asks for it when a search ends elsewhere)."""
    return section(request)


@require_GET
def looking_now(request: HttpRequest) -> HttpResponse:
    """How many look per game and pace (the lobby asks again now and then)."""
    return render(request, "pairing/_looking.html", {"games": game_lines(services.looking())})


@login_required
@require_POST
def look(request: AuthedRequest) -> HttpResponse:
    """Start looking; a pass runs at once, so whoever fits sits down now."""
    form = LookForm(request.POST)
    if not form.is_valid():
        return section(request, form.refusal(), 400)
    try:
        seek = services.look(request.user, **form.wanted())
    except ServiceError as error:
        return section(request, str(error), error.status)
    try:
        paired = services.pass_pool(seek.kind, seek.pace)
    except Exception:  # the seek stands: the sweep pairs it within a second
        logger.exception("the pass after a look failed")
        paired = []
    table = next((p.url for p in paired if request.user.pk in p.people), None)
    # Another press's pass may have seated this person first (this pass then found nobody).
    table = table or services.table_since(request.user.pk, seek.created_at)
    if table is None:
        return section(request)
    if request.htmx:
        return HttpResponseClientRedirect(table)
    return redirect(table)


@login_required
@require_POST
def stop(request: AuthedRequest) -> HttpResponse:
    """Stop looking (the Cancel button)."""
    services.stop(request.user)
    return section(request)
