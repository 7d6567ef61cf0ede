"""The public API's tests: a token per persona, and a client that sends it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from accounts import tokens
from accounts.models import User
from tests.accounts.oauth_flow import app_tokens

ALL = list(tokens.SCOPES)


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Bots answer inline, so a table against bots is played at once (tests/fixtures.py)."""


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    """Each test counts its own requests against the limits."""
    cache.clear()


class Api:
    """A client of the API with one token (or none)."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **extra: Any) -> Any:
        return self.client.get(f"/api{path}", headers=self.headers, **extra)

    def post(self, path: str, body: object = None, raw: str | None = None, **extra: Any) -> Any:
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post(
            f"/api{path}", data, content_type="application/json", headers=self.headers, **extra
        )


@pytest.fixture
def api_for() -> Callable[..., Api]:
    """A client for this person, with a new token of these scopes (all by default)."""

    def make(user: User | None, scopes: list[str] | None = None) -> Api:
        if user is None:
            return Api(None)
        return Api(tokens.make(user.pk, "test", scopes or ALL, None).token)

    return make


@pytest.fixture
def app_api_for() -> Callable[..., Api]:
    """A client for this person, with an app's OAuth2 access token of these scopes (all by
    default), got through the whole PKCE flow (tests/accounts/oauth_flow.py)."""

    def make(user: User, scopes: list[str] | None = None) -> Api:
        return Api(app_tokens(user, " ".join(scopes or ALL))["access_token"])

    return make
