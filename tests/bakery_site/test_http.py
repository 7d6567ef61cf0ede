"""The site's ASGI handler (bakery_site/http.py) runs a page's whole middleware chain and view in
one trip from the event loop to the request's thread, where Django's own handler goes back to the
loop inside the chain and makes a trip for CSRF's view check and one for the view; the chain
itself is the site's, in full (sessions, CSRF, clickjacking)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest
from asgiref import sync
from django.core.handlers.asgi import ASGIHandler

from bakery_site.http import OneTripHandler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.backend]


async def asked(
    handler: ASGIHandler, method: str, path: str, body: bytes = b""
) -> list[dict[str, Any]]:
    """One request through the handler, as Daphne makes it: what was sent back."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    parts = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if parts:
            return parts.pop()
        await asyncio.Event().wait()  # the browser stays: no disconnect
        raise AssertionError("unreachable")

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(dict(message))

    await handler(scope, receive, send)
    return sent


def trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of what is sent from the loop to a thread (sync_to_async calls), from now on."""
    made: list[str] = []
    called = sync.SyncToAsync.__call__

    async def counted(self: sync.SyncToAsync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        made.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await called(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    return made


async def test_a_page_is_one_trip_to_its_thread_where_djangos_handler_takes_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handler, django = OneTripHandler(), ASGIHandler()
    made = trips(monkeypatch)
    sent = await asked(handler, "GET", "/")
    assert sent[0]["status"] == 200
    # The request's signals and the response's close aside, middleware and view: one trip.
    assert [n for n in made if "send" not in n and "close" not in n] == ["BaseHandler.get_response"]
    ours = list(made)
    made.clear()
    assert (await asked(django, "GET", "/"))[0]["status"] == 200
    assert "CsrfViewMiddleware.process_view" in made and "lobby" in made  # trips of their own
    assert len(made) >= len(ours) + 2


async def test_the_whole_middleware_chain_still_runs() -> None:
    handler = OneTripHandler()
    sent = await asked(handler, "GET", "/accounts/login/")
    headers = dict(sent[0]["headers"])
    assert sent[0]["status"] == 200
    assert b"csrftoken=" in headers[b"Set-Cookie"]  # the CSRF middleware's cookie
    assert headers[b"X-Frame-Options"] == b"DENY"  # the clickjacking middleware's header
    # A form post without its token is refused by the CSRF middleware, and changes nothing.
    refused = await asked(handler, "POST", "/accounts/login/", b"username=a&password=b")
    assert refused[0]["status"] == 403
