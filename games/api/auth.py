"""Who asks: the bearer token of every request, a personal access token or an app's OAuth2
access token (accounts/keys.py: either, read alike), checked against its row, counted against
the limits, and each operation's scope.

The client address is counted before the token is looked at, so guessing tokens costs the
guesser's own limit; then the token's own.
"""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from ninja.security import HttpBearer

from accounts import keys
from accounts.client_ip import client_ip
from accounts.keys import Key
from accounts.models import User
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
    """A token in the Authorization header, personal or an app's; the request's `auth` is its
    key."""

    def __call__(self, request: HttpRequest) -> Key | None:
        within_limit(
            f"client:{client_ip(request) or 'unknown'}", settings.API_CLIENT_REQUESTS_PER_MINUTE
        )
        scheme, _, token = request.headers.get(self.header, "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refused(401, NO_TOKEN)
        return self.authenticate(request, token.strip())

    def authenticate(self, request: HttpRequest, token: str) -> Key:
        key = keys.find(token)
        if key is None:
            raise Refused(401, UNKNOWN)
        at = timezone.now()
        why = key.refusal(at)
        if why:
            raise Refused(401, why)
        within_limit(key.label, settings.API_TOKEN_REQUESTS_PER_MINUTE)
        body_within_limit(request)
        key.note_use(at)
        return key


def token_of(request: HttpRequest) -> Key:
    """The token this request was let in with."""
    return cast(Key, request.auth)  # type: ignore[attr-defined]


def person(request: HttpRequest, scope: str | None = None) -> User:
    """The token's person; Refused (403) when the token lacks `scope`."""
    row = token_of(request)
    if scope is not None and scope not in row.scope_list:
        raise Refused(403, f"This token may not do that: it needs the scope “{scope}”.")
    return row.user
