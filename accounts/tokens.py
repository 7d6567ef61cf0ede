"""Personal access tokens: a person's keys to the public API (games/api/), made, named, scoped and
revoked on their settings page.

A token reads `bkh_<prefix>_<secret>`. The prefix is public and finds the row; only the sha256 of
the whole token is stored, so a leaked database holds no key, and the secret is shown once, when
made. A token works while it is neither revoked nor past its expiry, and for what its scopes say.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop as N_

SCOPES: dict[str, str] = {
    "account:read": N_("Read your account, your games and your tables"),
    "games:play": N_("Play: make moves and resign at your tables"),
    "events:join": N_("Join events: quick pairing, challenges and tournaments"),
    "chat:read": N_("Read the chat of tables you may see"),
    "chat:write": N_("Write in the chat of your tables"),
    "bot:play": N_("Upgrade this account to a bot account (for good, only before any game)"),
}
"""Every scope a token may carry, with what it lets the token's holder do (the settings page's
words, in English; the page says them in the reader's language)."""

KIND = "bkh"
PREFIX_CHARS = 8
NAME_MAX = 40
EXPIRY_DAYS = (7, 30, 90, 365)
"""The expiries offered on the settings page (days), beside "never"."""

LAST_USED_STEP = timedelta(seconds=60)
"""A token's last use is written at most this often: a bot's every request is no database write."""


class AccessToken(models.Model):
    """One personal access token: its public prefix, the digest of the whole token, its scopes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=NAME_MAX, help_text=_("What the person called it."))
    prefix = models.CharField(
        max_length=PREFIX_CHARS, unique=True, editable=False, help_text=_("Public: finds the row.")
    )
    digest = models.CharField(
        max_length=64, editable=False, help_text=_("sha256 of the whole token (never the token).")
    )
    scopes = models.CharField(max_length=200, help_text=_("What it may do, separated by spaces."))
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text=_("Empty: never."))
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({KIND}_{self.prefix}…)"

    @property
    def scope_list(self) -> list[str]:
        """The scopes, in the order SCOPES lists them."""
        held = set(self.scopes.split())
        return [scope for scope in SCOPES if scope in held]

    @property
    def label(self) -> str:
        """The key's name for the limits and the streams' watch (accounts/keys.py)."""
        return f"token:{self.pk}"

    def note_use(self, at: datetime) -> None:
        """Note the token's use (see used)."""
        used(self, at)

    def refusal(self, at: datetime) -> str:
        """Why this token no longer works ("" while it does)."""
        if self.revoked_at is not None:
            return "This token was revoked."
        if self.expires_at is not None and self.expires_at <= at:
            return "This token has expired."
        if not self.user.is_active:
            return "This token's account is closed."
        return ""


def digest_of(token: str) -> str:
    """The stored digest of a whole token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Made:
    """A token just made: its row, and the whole token, shown to its person this once."""

    row: AccessToken
    token: str


def make(user_id: int, name: str, scopes: list[str], days: int | None) -> Made:
    """A new token for this person (the form checked the name, the scopes and the count)."""
    prefix = secrets.token_hex(PREFIX_CHARS // 2)
    while AccessToken.objects.filter(prefix=prefix).exists():  # pragma: no cover (1 in 4e9)
        prefix = secrets.token_hex(PREFIX_CHARS // 2)
    token = f"{KIND}_{prefix}_{secrets.token_urlsafe(32)}"
    expires = timezone.now() + timedelta(days=days) if days else None
    row = AccessToken.objects.create(
        user_id=user_id,
        name=name,
        prefix=prefix,
        digest=digest_of(token),
        scopes=" ".join(s for s in SCOPES if s in scopes),
        expires_at=expires,
    )
    return Made(row, token)


def split(token: str) -> str | None:
    """The prefix of a well-formed token, None for anything else."""
    kind, _, rest = token.partition("_")
    prefix, _, secret = rest.partition("_")
    if kind != KIND or len(prefix) != PREFIX_CHARS or not secret:
        return None
    return prefix


def find(token: str) -> AccessToken | None:
    """The row of this token, whatever its state (revoked, expired), or None if it is no token
    of ours; the digest compared in constant time."""
    prefix = split(token)
    if prefix is None:
        return None
    try:  # get(), not first(): the prefix is unique, and first()'s ORDER BY (the Meta's
        # ordering) cost 0.5 ms of CPU a request to compile (bench.api_gets, issue 49)
        row = AccessToken.objects.select_related("user").get(prefix=prefix)
    except AccessToken.DoesNotExist:
        return None
    if not hmac.compare_digest(row.digest, digest_of(token)):
        return None
    return row


def used(row: AccessToken, at: datetime) -> None:
    """Note the token's use, at most once a LAST_USED_STEP."""
    if row.last_used_at is None or at - row.last_used_at >= LAST_USED_STEP:
        row.last_used_at = at
        AccessToken.objects.filter(pk=row.pk).update(last_used_at=at)


def live_count(user_id: int) -> int:
    """The person's tokens not revoked (expired ones count until revoked: they hold a name)."""
    return AccessToken.objects.filter(user_id=user_id, revoked_at__isnull=True).count()


def revoke(user_id: int, token_id: int) -> bool:
    """Revoke one of this person's tokens; whether there was one to revoke."""
    mine = AccessToken.objects.filter(pk=token_id, user_id=user_id, revoked_at__isnull=True)
    return mine.update(revoked_at=timezone.now()) == 1
