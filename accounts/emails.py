"""A person's email address: the verification link, the mails, and the limits on sending them.

A verification link carries the account and the address it was sent to, signed with a timestamp
(django.core.signing): it works for EMAIL_VERIFY_MAX_AGE seconds, and only while the account
still has that address. Password resets are Django's own views (accounts/urls.py) with the form
and limits below.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import MAIL_KINDS, User

logger = logging.getLogger(__name__)

VERIFY_SALT = "accounts.email-verification"
UNSUBSCRIBE_SALT = "accounts.mail-unsubscribe"

# Password-reset requests per hour: from one client address, and for one email address. Over
# either, the person sees the same neutral answer and no mail goes out.
RESETS_PER_CLIENT = 5
RESETS_PER_ADDRESS = 3
# Verification mails one account may have sent per hour (changing the address, or "send again").
VERIFICATIONS_PER_ACCOUNT = 5
LIMIT_WINDOW = 3600  # seconds


def verified_elsewhere(email: str, user: User | None = None) -> bool:
    """Whether another account already has this address verified (compared case-insensitively)."""
    others = User.objects.filter(email__iexact=email, email_verified=True)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    return others.exists()


def verification_token(user: User) -> str:
    """A signed, timestamped token naming the account and the address to verify."""
    return signing.dumps({"user": user.pk, "email": user.email}, salt=VERIFY_SALT)


class VerificationRefused(Exception):
    """A verification link that does not verify anything; its message says why, in words."""


def verify(token: str) -> User:
    """Mark the address the token names verified, and return its account; or refuse in words."""
    try:
        payload: dict[str, Any] = signing.loads(
            token, salt=VERIFY_SALT, max_age=settings.EMAIL_VERIFY_MAX_AGE
        )
    except signing.SignatureExpired as expired:
        raise VerificationRefused(
            "This link has expired. Send a new one from your settings page."
        ) from expired
    except signing.BadSignature as bad:
        raise VerificationRefused(
            "This link is not valid. Copy the whole link from the mail, or send a new one "
            "from your settings page."
        ) from bad
    user_pk, email = payload.get("user"), payload.get("email")
    user = User.objects.filter(pk=user_pk).first() if isinstance(user_pk, int) else None
    if user is None or not email or user.email != email:
        raise VerificationRefused(
            "This link is for an address the account no longer has. The settings page shows "
            "the current one."
        )
    if verified_elsewhere(email, user):
        raise VerificationRefused(
            "Another account has verified this address in the meantime, so it cannot be yours "
            "too. Choose another address on your settings page."
        )
    if not user.email_verified:
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user


def under_limit(key: str, limit: int) -> bool:
    """Count one more request under this key; whether it is within `limit` per LIMIT_WINDOW.

    The counts live in Django's cache: each process's own memory by default, so with several
    processes each counts on its own unless CACHE_URL puts the cache on Redis (settings).
    """
    cache.add(key, 0, timeout=LIMIT_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=LIMIT_WINDOW)
        count = 1
    return count <= limit


def address_key(email: str) -> str:
    """A cache key for an email address that does not hold the address itself."""
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()


def send_verification(request: HttpRequest, user: User) -> bool:
    """Mail the account's address a verification link; whether a mail went out.

    Nothing is sent over the account's hourly limit, or when the mail server fails (logged).
    """
    if not user.email or not under_limit(f"verify-mail:user:{user.pk}", VERIFICATIONS_PER_ACCOUNT):
        return False
    link = request.build_absolute_uri(reverse("verify_email", args=[verification_token(user)]))
    days = settings.EMAIL_VERIFY_MAX_AGE // (24 * 3600)
    context = {"user": user, "link": link, "days": days}
    body = render_to_string("accounts/email/verify_body.txt", context)
    subject = "".join(render_to_string("accounts/email/verify_subject.txt", context).splitlines())
    try:
        send_mail(subject, body, None, [user.email])
    except OSError:  # smtplib's errors are OSErrors, as are refused connections
        logger.exception("Could not send the verification mail to account %s", user.pk)
        return False
    return True


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's reset form, mailing only an active account's verified address."""

    def get_users(self, email: str) -> Iterable[User]:
        """The accounts with this address verified (at most one), active and with a password."""
        return (user for user in super().get_users(email) if user.email_verified)


def unsubscribe_token(user: User, kinds: Iterable[str]) -> str:
    """A signed token that turns these kinds of mail off for the account (it never expires)."""
    return signing.dumps({"user": user.pk, "kinds": sorted(set(kinds))}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_target(token: str) -> tuple[User, list[str]]:
    """The account and the kinds of mail a token turns off; ValueError in words otherwise."""
    try:
        payload: dict[str, Any] = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature as bad:
        raise ValueError("This link is not valid. Copy the whole link from the mail.") from bad
    user_pk, kinds = payload.get("user"), payload.get("kinds")
    user = User.objects.filter(pk=user_pk).first() if isinstance(user_pk, int) else None
    if user is None or not isinstance(kinds, list) or not set(kinds) <= set(MAIL_KINDS):
        raise ValueError("This link is for an account that no longer exists.")
    return user, kinds


def unsubscribe(user: User, kinds: Iterable[str]) -> None:
    """Turn these kinds of mail off for the account."""
    fields = [f"mail_{kind}" for kind in kinds]
    for field in fields:
        setattr(user, field, False)
    user.save(update_fields=fields)
