"""Who asks: the bearer token of every request, checked against its row (accounts/tokens.py),
counted against the limits, and each operation's scope.

The client address is counted before the token is looked at, so guessing tokens costs the
guesser's own limit; then the token's own.
"""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from ninja.security import HttpBearer

from accounts import tokens
from accounts.client_ip import client_ip
from accounts.models import User
from accounts.tokens import AccessToken
from games.api import limits
from games.api.errors import Refused

NO_TOKEN = "This needs a token: send Authorization: Bearer <token>."
UNKNOWN = "That token is not one of ours."
TOO_FAST = "Too many requests: wait {wait} s before the next."


def within_limit(key: str, limit: int) -> None:
    """Count one request under this key; Refused with 429 and the wait when over its limit."""
    wait = limits.wait_for(key, limit)
    if wait:
        raise Refused(429, TOO_FAST.format(wait=wait), retry_after=wait)


def body_within_limit(request: HttpRequest) -> None:
    """A body longer than API_BODY_MAX is refused before it is read."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > settings.API_BODY_MAX:
        raise Refused(413, f"The request body is too large: at most {settings.API_BODY_MAX} bytes.")


class BearerToken(HttpBearer):
    """A personal access token in the Authorization header; the request's `auth` is its row."""

    def __call__(self, request: HttpRequest) -> AccessToken | None:
        within_limit(
            f"client:{client_ip(request) or 'unknown'}", settings.API_CLIENT_REQUESTS_PER_MINUTE
        )
        scheme, _, token = request.headers.get(self.header, "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refused(401, NO_TOKEN)
        return self.authenticate(request, token.strip())

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken:
        row = tokens.find(token)
        if row is None:
            raise Refused(401, UNKNOWN)
        at = timezone.now()
        why = row.refusal(at)
        if why:
            raise Refused(401, why)
        within_limit(f"token:{row.pk}", settings.API_TOKEN_REQUESTS_PER_MINUTE)
        body_within_limit(request)
        tokens.used(row, at)
        return row


def token_of(request: HttpRequest) -> AccessToken:
    """The token this request was let in with."""
    return cast(AccessToken, request.auth)  # type: ignore[attr-defined]


def person(request: HttpRequest, scope: str | None = None) -> User:
    """The token's person; Refused (403) when the token lacks `scope`."""
    row = token_of(request)
    if scope is not None and scope not in row.scope_list:
        raise Refused(403, f"This token may not do that: it needs the scope “{scope}”.")
    return row.user
