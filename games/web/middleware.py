"""A failure inside the board is told in the board: a player never sees a traceback page."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from games import outages
from games.boards import board_message

logger = logging.getLogger("bakehouse.errors")

# Django answers these itself (404, 403, 400); only real failures become the error box.
HANDLED_BY_DJANGO = (Http404, PermissionDenied, SuspiciousOperation, BadRequest)
SORRY = N_("Something went wrong on our side, so your tap was not taken.")


class BoardErrorMiddleware:
    """An HTMX request that fails answers 500 with the site's own message box, even with DEBUG; one
    that meets the database away answers 503 in words, for any page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, outages.OUTAGE):
            # Told once in the log (games/outages.py); the player is told to try again.
            outages.away(exception)
            if getattr(request, "htmx", False):
                return HttpResponse(board_message(gettext(outages.WORDS)), status=503)
            # No request: nothing the page draws may read the database.
            page = render_to_string("503.html", {"words": gettext(outages.WORDS)})
            return HttpResponse(page, status=503)
        if not getattr(request, "htmx", False) or isinstance(exception, HANDLED_BY_DJANGO):
            return None
        # The traceback still reaches the server's log, just not the player's screen.
        logger.error("%s %s failed", request.method, request.path, exc_info=exception)
        return HttpResponse(board_message(gettext(SORRY)), status=500)
