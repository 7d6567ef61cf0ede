"""The keys to the public API: a personal access token (accounts/tokens.py) or an app's OAuth2
access token (accounts/oauth/keys.py). The API reads either through this one door and asks
nothing else of it: whose it is, its scopes, why it no longer works, its label (what the limits
and the streams count it by), and to note its use. Both say the same words for the same state."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from accounts import tokens
from accounts.models import User
from accounts.oauth import keys as app_keys

APP_LABEL = "oauth:"
TOKEN_LABEL = "token:"


class Key(Protocol):
    """What the API reads of a key, whichever kind."""

    @property
    def user(self) -> User: ...

    @property
    def user_id(self) -> int: ...

    @property
    def label(self) -> str: ...

    @property
    def scope_list(self) -> list[str]: ...

    def refusal(self, at: datetime) -> str: ...

    def note_use(self, at: datetime) -> None: ...


def find(token: str) -> Key | None:
    """The key this token is, whatever its state (expired...), or None if it is none of ours."""
    if app_keys.is_app_token(token):
        return app_keys.find(token)
    return tokens.find(token)


def pks_of(labels: list[str], kind: str) -> list[int]:
    """The row ids of the labels of one kind."""
    return [int(label.removeprefix(kind)) for label in labels if label.startswith(kind)]


def refusals(labels: list[str], at: datetime) -> dict[str, str]:
    """Each key's refusal by label ("" while it works), read in one query a kind; a key that is
    gone (an app's revoked token is deleted) is missing."""
    said: dict[str, str] = {}
    personal = pks_of(labels, TOKEN_LABEL)
    if personal:
        rows = tokens.AccessToken.objects.select_related("user").filter(pk__in=personal)
        said.update({row.label: row.refusal(at) for row in rows})
    apps = pks_of(labels, APP_LABEL)
    if apps:
        said.update(app_keys.refusals(apps, at))
    return said
