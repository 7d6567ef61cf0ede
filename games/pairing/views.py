"""The lobby's "Find a game" section: the forms, the waiting panel, who is looking. Thin views."""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.access import AuthedRequest, HtmxHttpRequest
from games.pairing import services, shown
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
    """The section as it stands (the page asks for it when a search ends elsewhere, or when a
    press got no answer); to the table, if a pass seated the person a moment ago."""
    table = services.just_seated(request.user.pk) if request.user.is_authenticated else None
    return seated(request, table) if table else section(request)


def looking_etag(request: HttpRequest) -> str:
    """The counts as they stand (kept a second): an unchanged list is answered 304, unread."""
    counts = sorted(shown.looking().items())
    return hashlib.blake2b(repr(counts).encode(), digest_size=8).hexdigest()


@require_GET
@cache_control(private=True, no_cache=True)
@condition(etag_func=looking_etag)
def looking_now(request: HttpRequest) -> HttpResponse:
    """How many look per game and pace (the lobby asks again every few seconds while shown)."""
    return render(request, "pairing/_looking.html", {"games": game_lines(shown.looking())})


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
    return seated(request, table) if table else waiting_or_seated(request, seek.created_at)


def waiting_or_seated(request: AuthedRequest, since: datetime) -> HttpResponse:
    """The waiting panel, unless another press's pass seated this person first (this one then
    found nobody): the section is read first, so a search gone from it has its table stored."""
    ctx = section_context(request.user) if request.htmx else None
    table = None
    if ctx is None or ctx["waiting"] is None:
        table = services.table_since(request.user.pk, since)
    if table is not None:
        return seated(request, table)
    if ctx is None:
        return redirect("lobby")
    return render(request, "pairing/_find.html", ctx)


def seated(request: HttpRequest, table: str) -> HttpResponse:
    """To the table this person was seated at."""
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(table)
    return redirect(table)


@login_required
@require_POST
def stop(request: AuthedRequest) -> HttpResponse:
    """Stop looking (the Cancel button)."""
    services.stop(request.user)
    return section(request)
