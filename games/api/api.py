"""The API as one django-ninja app: its routers, its token, its refusals, its schema and docs.

Every operation needs a personal access token (auth.BearerToken), which also counts the limits;
the OpenAPI 3 schema is generated from the operations at /api/openapi.json and drawn at /api/docs
(Swagger UI from django-ninja's own static files: the site's CSP allows only its own scripts).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Router
from ninja.operation import Operation

from games.api import (
    bots,
    challenges,
    errors,
    event_stream,
    game_stream,
    pairing,
    people,
    query,
    tables,
    tournaments,
)
from games.api.auth import BearerToken

DESCRIPTION = """Play Bakehouse from any program. Every request carries a personal access token
(make one at Settings, Access tokens) as `Authorization: Bearer <token>`; each operation says the
scope it needs. Every refusal is JSON, `{"error": "<a sentence>"}`, with its status: 400 a body
that is not what the operation takes, a query parameter it does not take or an illegal move,
401 no token or one revoked or expired, 403 a scope the token lacks or a table that is not
yours, 404 nothing by that name or number, 409 a stale version or a move out of turn, 413 a
body too large, 429 too many requests (wait the Retry-After seconds).

Two operations stream NDJSON over a response that stays open: a table
(`/api/games/{id}/stream`) and your events (`/api/stream/event`). Each line is an object with
its `type`; a blank line comes now and then while nothing happens; the last line,
`{"type": "end", "why": ...}`, says why the stream ended (the game is over, the token was
revoked, the server restarts: open it again, and its first lines are the whole state). A token
may hold a few streams open at once (429 past them)."""


class BakehouseAPI(NinjaAPI):
    """django-ninja's API, its operations named by their views alone ("move", "table"): the
    names generated clients call them by."""

    def get_openapi_operation_id(self, operation: Operation) -> str:
        return operation.view_func.__name__


api = BakehouseAPI(
    title="Bakehouse API",
    version="1",
    description=DESCRIPTION,
    auth=BearerToken(),
    urls_namespace="api",
)
errors.install(api)
query.install(api)
api.add_router("", people.router)
api.add_router("", tables.router)
api.add_router("", bots.router)
api.add_router("", game_stream.router)
api.add_router("", event_stream.router)
api.add_router("", challenges.router)
api.add_router("", pairing.router)
api.add_router("", tournaments.router)
fallback = Router()


@fallback.api_operation(
    ["GET", "POST", "PUT", "PATCH", "DELETE"], "/{path:rest}", auth=None, include_in_schema=False
)
def unknown(request: HttpRequest, rest: str) -> HttpResponse:
    """Any other address under /api/: a refusal in words, not the site's HTML 404."""
    return errors.answer(404, "There is no such operation: /api/docs lists them all.")


api.add_router("", fallback)  # last: every other address is tried first
