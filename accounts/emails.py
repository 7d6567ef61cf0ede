"""A person's email address: the verification link, the mails, and the limits on sending them.

A verification link carries the account and the address it was sent to, signed with a timestamp
(django.core.signing): it works for EMAIL_VERIFY_MAX_AGE seconds, and only while the account
still has that address. Password resets are Django's own views (accounts/urls.py) with the form
and limits below.

The verification and password-reset mails leave the request: the request queues a task
(django-tasks on the database) and a worker sends it (each Daphne process's mail thread,
games/live/task_worker.py, or `manage.py db_worker`). A reset's request does the same for any
address typed: one look-up (the same query, found or not) and one task queued, so how long the
answer takes says nothing about which addresses have accounts. The task keeps no address: only
the account found (or none) and a keyed digest of what was typed (mailed_to), which the account
must still match when the mail goes. The limits count in the request, the same for any address.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Iterable
from typing import cast

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core import signing
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives, send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_tasks import task

from accounts.languages import in_language_of
from accounts.models import MAIL_KINDS, User

logger = logging.getLogger(__name__)

VERIFY_SALT = "accounts.email-verification"
UNSUBSCRIBE_SALT = "accounts.mail-unsubscribe"

# Password-reset requests per hour: from one client address, and for one email address. Over
# either, the person sees the same neutral answer and no mail goes out.
RESETS_PER_CLIENT = 5
RESETS_PER_ADDRESS = 3
# Verification mails per hour: one account may have sent (changing the address, or "send
# again"), and one address may be sent whoever asks (sign-ups naming a stranger's address).
VERIFICATIONS_PER_ACCOUNT = 5
VERIFICATIONS_PER_ADDRESS = 3
LIMIT_WINDOW = 3600  # seconds

TOO_MANY_SIGNUPS = _(
    "Too many accounts were made from your network in the last hour. Try again in an hour."
)
TOO_MANY_TO_ADDRESS = _(
    "This address has been sent as many links as it may have in an hour. Leave it empty for now "
    "(you can add it at Settings later), or try again in an hour."
)
TOO_MANY_FROM_ACCOUNT = _(
    "You have asked for as many links as you may in an hour. Try again in an hour."
)

RESET_SUBJECT = "accounts/email/password_reset_subject.txt"
RESET_BODY = "accounts/email/password_reset_body.txt"


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
        payload: dict[str, object] = signing.loads(
            token, salt=VERIFY_SALT, max_age=settings.EMAIL_VERIFY_MAX_AGE
        )
    except signing.SignatureExpired as expired:
        raise VerificationRefused(
            gettext("This link has expired. Send a new one from your settings page.")
        ) from expired
    except signing.BadSignature as bad:
        raise VerificationRefused(
            gettext(
                "This link is not valid. Copy the whole link from the mail, or send a new one "
                "from your settings page."
            )
        ) from bad
    user_pk, email = payload.get("user"), payload.get("email")
    user = User.objects.filter(pk=user_pk).first() if isinstance(user_pk, int) else None
    if user is None or not email or user.email != email:
        raise VerificationRefused(
            gettext(
                "This link is for an address the account no longer has. The settings page shows "
                "the current one."
            )
        )
    if verified_elsewhere(email, user):
        raise VerificationRefused(
            gettext(
                "Another account has verified this address in the meantime, so it cannot be yours "
                "too. Choose another address on your settings page."
            )
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


def verification_refusal(email: str, user: User | None = None) -> str | None:
    """Count one more verification mail to this address (and from this account); why it may
    not go, in words, over an hourly limit. The address's count goes up only for an account
    within its own limit."""
    if user is not None and not under_limit(
        f"verify-mail:user:{user.pk}", VERIFICATIONS_PER_ACCOUNT
    ):
        return str(TOO_MANY_FROM_ACCOUNT)
    if not under_limit(f"verify-mail:address:{address_key(email)}", VERIFICATIONS_PER_ADDRESS):
        return str(TOO_MANY_TO_ADDRESS)
    return None


def queue_verification(request: HttpRequest, user: User) -> None:
    """Queue the mail of a verification link to the account's address (counted already)."""
    mail_verification.enqueue(user.pk, user.email, request.build_absolute_uri("/"))


@task()
def mail_verification(user_id: int, email: str, site: str) -> bool:
    """Mail a verification link to the address the account had when it was queued, unless it
    has changed or been verified since; whether a mail went out. A mail server's failure is
    logged and fails the task (Task results in admin)."""
    user = User.objects.filter(pk=user_id, email=email, email_verified=False).first()
    if user is None:
        return False
    owner = User.objects.filter(email__iexact=email, email_verified=True).exclude(pk=user.pk)
    taken_by = owner.values_list("username", flat=True).first()
    link = site.rstrip("/") + reverse("verify_email", args=[verification_token(user)])
    days = settings.EMAIL_VERIFY_MAX_AGE // (24 * 3600)
    context = {"user": user, "link": link, "days": days, "owner": taken_by, "site": site}
    # An address another account verified gets no link, only word of its own account: the
    # sign-up and settings pages answered as for any address, so only its mailbox learns it.
    name = "address_taken" if taken_by is not None else "verify"
    with in_language_of(user):
        body = render_to_string(f"accounts/email/{name}_body.txt", context)
        subject = "".join(
            render_to_string(f"accounts/email/{name}_subject.txt", context).split("\n")
        )
    try:
        send_mail(subject, body, None, [email])
    except OSError:  # smtplib's errors are OSErrors, as are refused connections
        logger.exception("Could not send the verification mail to account %s", user.pk)
        raise
    return True


def queue_password_reset(request: HttpRequest, email: str) -> None:
    """Queue a password reset for the typed address, whoever it belongs to (counted already):
    the task carries the account found, if any, and a digest of the address, never the address."""
    found = next(iter(VerifiedPasswordResetForm().get_users(email)), None)
    account = found.pk if found is not None else None
    mail_reset_link.enqueue(account, mailed_to(email), request.get_host(), request.is_secure())


@task()
def mail_reset_link(account: int | None, to: str, domain: str, use_https: bool) -> None:
    """Mail a reset link to the account asked for while the address typed (its digest `to`)
    is still its verified one, and it is active; else nothing."""
    user = User.objects.filter(pk=account).first() if account is not None else None
    if user is None or not user.email or not hmac.compare_digest(mailed_to(user.email), to):
        return
    send_reset_link(user.email, domain, use_https)


@task()
def mail_password_reset(email: str, domain: str, use_https: bool) -> None:
    """The task the code before mail_reset_link queued (with the address typed): a reset asked
    just before the deploy that brought mail_reset_link is still mailed. Remove it with the
    deploy after."""
    send_reset_link(email, domain, use_https)


def send_reset_link(email: str, domain: str, use_https: bool) -> None:
    """Mail a reset link if the address is an active account's verified one; else nothing."""
    form = VerifiedPasswordResetForm({"email": email})
    if form.is_valid():
        form.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name=RESET_SUBJECT,
            email_template_name=RESET_BODY,
        )


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's reset form, mailing only an active account's verified address."""

    def get_users(self, email: str) -> Iterable[User]:
        """The accounts with this address verified (at most one), active and with a password."""
        return (user for user in super().get_users(email) if user.email_verified)

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, object],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        """Send the link; a failure is logged and fails the task (Django's own only logs it)."""
        with in_language_of(cast(User, context["user"])):
            subject = "".join(render_to_string(subject_template_name, context).splitlines())
            body = render_to_string(email_template_name, context)
        try:
            EmailMultiAlternatives(subject, body, from_email, [to_email]).send()
        except OSError:
            account = cast(User, context["user"]).pk
            logger.exception("Could not send the password-reset mail to account %s", account)
            raise


def mailed_to(email: str) -> str:
    """A short keyed digest of the address a mail went to: binds an unsubscribe link to it
    without putting the address in the link."""
    return salted_hmac(UNSUBSCRIBE_SALT, email.strip().lower()).hexdigest()[:20]


def unsubscribe_token(user: User, kinds: Iterable[str]) -> str:
    """A signed, timestamped token that turns these kinds of mail off for the account, while it
    still has the address the mail goes to, for UNSUBSCRIBE_MAX_AGE seconds."""
    payload = {"user": user.pk, "kinds": sorted(set(kinds)), "to": mailed_to(user.email)}
    return signing.dumps(payload, salt=UNSUBSCRIBE_SALT)


GO_TO_SETTINGS = _("You can turn these mails off at Settings after logging in.")


def unsubscribe_target(token: str) -> tuple[User, list[str]]:
    """The account and the kinds of mail a token turns off; ValueError in words otherwise."""
    try:
        payload: dict[str, object] = signing.loads(
            token, salt=UNSUBSCRIBE_SALT, max_age=settings.UNSUBSCRIBE_MAX_AGE
        )
    except signing.SignatureExpired as expired:
        raise ValueError(f"{gettext('This link has expired.')} {GO_TO_SETTINGS}") from expired
    except signing.BadSignature as bad:
        said = gettext("This link is not valid. Copy the whole link from the mail.")
        raise ValueError(said) from bad
    user_pk, kinds, to = payload.get("user"), payload.get("kinds"), payload.get("to")
    if not isinstance(to, str):  # a link from before links were bound to their address
        said = gettext("This link is from an older mail and no longer works.")
        raise ValueError(f"{said} {GO_TO_SETTINGS}")
    user = User.objects.filter(pk=user_pk).first() if isinstance(user_pk, int) else None
    if user is None or not isinstance(kinds, list) or not set(kinds) <= set(MAIL_KINDS):
        raise ValueError(gettext("This link is for an account that no longer exists."))
    if not user.email or mailed_to(user.email) != to:
        said = gettext("This link was mailed to an address the account no longer has.")
        raise ValueError(f"{said} {GO_TO_SETTINGS}")
    return user, kinds


def unsubscribe(user: User, kinds: Iterable[str]) -> None:
    """Turn these kinds of mail off for the account."""
    fields = [f"mail_{kind}" for kind in kinds]
    for field in fields:
        setattr(user, field, False)
    user.save(update_fields=fields)
