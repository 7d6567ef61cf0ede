"""Django's ASGI handler, its middleware chain and view run in one trip to the request's thread.

Django's own ASGIHandler loads the middleware for async use. Axes, last in the chain, is sync
only, so Django runs the chain above it in one trip from the event loop to the request's thread,
comes back to the loop below it (async_to_sync), and then makes a trip of its own for CSRF's
view check and another for the view: three trips and a return to the loop, each a handoff
between threads, where a sync server makes none. Every piece of the site's HTTP side is sync, so
here the chain is loaded as WSGI loads it and the whole of it (middleware, view, the response
logged) runs in one trip: the same code, on the same thread, in the same order.

Measured in process on PostgreSQL (80 Swiss table pages asked at once through the handler, the
process's CPU, medians of 8 runs each on a loaded machine): 10.6 ms a page with Django's handler,
8.6 ms with this one; bench-web's figures are in docs/performance.md.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase


class OneTripHandler(ASGIHandler):
    """ASGIHandler whose middleware chain and view run in one sync_to_async call."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)  # not ASGIHandler's: it loads the chain for async use
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The response, worked out on the request's thread as a sync server would."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
