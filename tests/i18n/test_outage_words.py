"""The database away for a moment, told in the reader's language: the 503 page and a board's
message after a tap (games/outages.py's words, games/web/middleware.py)."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import translation

from games.web.middleware import BoardErrorMiddleware


def answer(language: str, htmx: bool) -> str:
    """What the middleware answers a request that met the database away, in the language."""
    request = RequestFactory().get("/games/1/")
    request.htmx = htmx  # type: ignore[attr-defined]
    middleware = BoardErrorMiddleware(lambda r: HttpResponse())
    with translation.override(language):
        response = middleware.process_exception(request, OperationalError("gone"))
    assert response is not None and response.status_code == 503
    return response.content.decode()


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "board"])
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Die Bäckerei hat kurz den Kontakt zu ihrer Datenbank verloren"),
        ("fr", "La boulangerie a perdu le contact avec sa base de données un instant"),
        ("en", "The bakery lost touch with its database for a moment"),
    ],
)
def test_the_outage_is_told_in_the_readers_language(language: str, said: str, htmx: bool) -> None:
    assert said in answer(language, htmx)
