"""The apps' tokens as the API reads them: an OAuth2 access token is a key to the API exactly
as a personal access token is (accounts/keys.py), with the same scopes, limits and refusals.

The toolkit stores only the sha256 of each token (settings: COMPLIANT_BCP_RFC9700_TOKEN_STORAGE)
and finds it by that digest. A token reads `bko_<secret>` (access) or `bkr_<secret>` (refresh):
the API tells an app's token from a personal one (`bkh_...`) by its look, with no query.
A revoked token is deleted by the toolkit, so it is no token at all from then on.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from oauth2_provider.models import AccessToken as AppToken
from oauth2_provider.models import RefreshToken

from accounts.models import User
from accounts.tokens import SCOPES

ACCESS = "bko_"
REFRESH = "bkr_"


def access_token(request: object, refresh_token: bool = False) -> str:
    """A new access token (the toolkit's ACCESS_TOKEN_GENERATOR)."""
    return ACCESS + secrets.token_urlsafe(32)


def refresh_token(request: object, refresh_token: bool = False) -> str:
    """A new refresh token (the toolkit's REFRESH_TOKEN_GENERATOR)."""
    return REFRESH + secrets.token_urlsafe(32)


def is_app_token(token: str) -> bool:
    """Whether this reads as an app's access token."""
    return token.startswith(ACCESS)


@dataclass(frozen=True)
class AppKey:
    """An app's access token as a key to the API: what a personal token answers, the same way."""

    row: AppToken

    @property
    def user(self) -> User:
        user: User = self.row.user
        return user

    @property
    def user_id(self) -> int:
        user_id: int = self.row.user_id
        return user_id

    @property
    def label(self) -> str:
        """The key's name for the limits and the streams' watch (never a personal token's)."""
        return f"oauth:{self.row.pk}"

    @property
    def scope_list(self) -> list[str]:
        """The scopes the person allowed, in the order SCOPES lists them."""
        held = set(str(self.row.scope).split())
        return [scope for scope in SCOPES if scope in held]

    def refusal(self, at: datetime) -> str:
        """Why this token no longer works ("" while it does): the words of a personal token."""
        if self.row.expires <= at:
            return "This token has expired."
        if not self.user.is_active:
            return "This token's account is closed."
        return ""

    def note_use(self, at: datetime) -> None:
        """The toolkit keeps no last use: nothing to write."""


def stored() -> QuerySet[AppToken]:
    """The apps' access tokens that belong to a person (a token without one is no key)."""
    rows: QuerySet[AppToken] = AppToken.objects.select_related("user", "application")
    return rows.filter(user__isnull=False)


def find(token: str) -> AppKey | None:
    """The key of this app token, or None if it is none of ours (or was revoked)."""
    if not is_app_token(token):
        return None
    digest = hashlib.sha256(token.encode()).hexdigest()
    row = stored().filter(token_checksum=digest).first()
    return None if row is None else AppKey(row)


def refusals(pks: list[int], at: datetime) -> dict[str, str]:
    """Each of these tokens' refusal ("" while it works), by label; a revoked one is missing."""
    keys = (AppKey(row) for row in stored().filter(pk__in=pks))
    return {key.label: key.refusal(at) for key in keys}


def held(user_id: int) -> QuerySet[AppToken]:
    """The apps' tokens this person allowed, newest first (the settings page lists them)."""
    return stored().filter(user_id=user_id).order_by("-created", "-pk")


def revoke_grant(row: AppToken) -> None:
    """Revoke this access token and every refresh token of its line, so the app cannot mint
    another from it."""
    with transaction.atomic():
        refresh = RefreshToken.objects.filter(access_token=row).first()
        if refresh is not None and refresh.token_family:
            RefreshToken.revoke_family(refresh.token_family)
        elif refresh is not None:
            refresh.revoke()
        AppToken.objects.filter(pk=row.pk).delete()


def revoke(user_id: int, token_id: int) -> bool:
    """Revoke one of this person's apps' tokens; whether there was one to revoke."""
    row = held(user_id).filter(pk=token_id).first()
    if row is None:
        return False
    revoke_grant(row)
    return True
