"""The OpenAPI 3 schema generated from the code, and its docs page under the site's CSP."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

OPERATIONS = {
    ("get", "/api/account"),
    ("get", "/api/account/games"),
    ("get", "/api/account/tables"),
    ("get", "/api/people/{name}"),
    ("get", "/api/people/{name}/games"),
    ("get", "/api/leaderboards/{kind}"),
    ("get", "/api/games/{game_id}"),
    ("post", "/api/games/{game_id}/move"),
    ("post", "/api/games/{game_id}/resign"),
    ("get", "/api/games/{game_id}/chat"),
    ("post", "/api/games/{game_id}/chat"),
    ("post", "/api/bot/account/upgrade"),
    ("get", "/api/tables/open"),
    ("post", "/api/games/{game_id}/join"),
    ("post", "/api/games/{game_id}/take-back"),
    ("get", "/api/games/{game_id}/stream"),
    ("get", "/api/stream/event"),
    ("post", "/api/challenge/{name}"),
    ("get", "/api/challenges"),
    ("post", "/api/challenge/{challenge_id}/accept"),
    ("post", "/api/challenge/{challenge_id}/decline"),
    ("post", "/api/challenge/{challenge_id}/cancel"),
    ("post", "/api/pairing"),
    ("delete", "/api/pairing"),
    ("get", "/api/tournaments"),
    ("post", "/api/tournaments/{tournament_id}/join"),
    ("post", "/api/tournaments/{tournament_id}/withdraw"),
    ("post", "/api/tournaments/{tournament_id}/here"),
}


def test_the_schema_lists_every_operation_with_its_token() -> None:
    schema = Client().get("/api/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    found = {(method, path) for path, ops in schema["paths"].items() for method in ops}
    assert found == OPERATIONS
    assert schema["components"]["securitySchemes"]["BearerToken"]["scheme"] == "bearer"
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            assert op["security"] == [{"BearerToken": []}], (method, path)
            assert "401" in op["responses"] and "429" in op["responses"], (method, path)


def test_each_operation_is_named_by_its_view_once() -> None:
    schema = Client().get("/api/openapi.json").json()
    names = [op["operationId"] for ops in schema["paths"].values() for op in ops.values()]
    assert len(set(names)) == len(names) == len(OPERATIONS)
    assert "move" in names and "table" in names


def test_the_docs_page_loads_its_own_scripts_only() -> None:
    page = Client().get("/api/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "swagger-ui-bundle.js" in html and "cdn" not in html.lower()
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "<script>" not in html  # no inline script: the CSP would block it
