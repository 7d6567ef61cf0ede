"""Notifications by mail: one mail per person for what waited unread, each kind unsubscribable.

The worker's sender thread (games/live/runner.py) calls sweep_mail: each person with a verified
address who opted in to a kind (Settings) gets one mail with everything of those kinds that waited
unread NOTIFICATION_MAIL_AFTER seconds, each kind with a signed one-click unsubscribe link (and the
List-Unsubscribe headers). A row is marked mailed under a row lock before the mail goes, so two
processes never mail it twice (a failed send is not tried again).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.emails import unsubscribe_token
from accounts.languages import in_language_of
from accounts.models import User
from games.notifications.models import Notification

logger = logging.getLogger(__name__)

Kind = Notification.Kind


def wanted_by_mail() -> Q:
    """The notifications whose person has a verified address and opted in to their kind."""
    chosen = Q()
    for kind in Kind.values:
        chosen |= Q(kind=kind, **{f"recipient__mail_{kind}": True})
    return (
        chosen
        & Q(recipient__email_verified=True, recipient__is_active=True)
        & ~Q(recipient__email="")
    )


def to_mail(now: datetime) -> QuerySet[Notification]:
    """Unread notifications not mailed yet, recent enough, that their person wants mailed."""
    since = now - timedelta(seconds=settings.NOTIFICATION_MAIL_WITHIN)
    fresh = Notification.objects.filter(emailed_at=None, read_at=None, created_at__gte=since)
    return fresh.filter(wanted_by_mail())


def sweep_mail(now: datetime | None = None) -> int:
    """Mail each person whose oldest unmailed notification waited NOTIFICATION_MAIL_AFTER seconds
    all of theirs in one mail; how many mails went out."""
    now = now or timezone.now()
    ripe = now - timedelta(seconds=settings.NOTIFICATION_MAIL_AFTER)
    due = to_mail(now).filter(created_at__lte=ripe).values_list("recipient_id", flat=True)
    return sum(mail_one(user_id, now) for user_id in sorted(set(due)))


def claim(user_id: int, now: datetime) -> list[Notification]:
    """Mark the person's notifications to mail as mailed, in one transaction; the ones this
    process claimed (another process sweeping at once skips the rows locked here)."""
    with transaction.atomic():
        rows = list(
            to_mail(now)
            .filter(recipient_id=user_id)
            .select_for_update(skip_locked=True, of=("self",))
            .select_related("recipient")
            .order_by("created_at", "pk")
        )
        Notification.objects.filter(pk__in=[r.pk for r in rows], emailed_at=None).update(
            emailed_at=now
        )
    return rows


def absolute(path: str) -> str:
    """A link to this page of the site, for a mail."""
    return settings.SITE_URL + path


def mail_one(user_id: int, now: datetime) -> bool:
    """Send the person one mail with their notifications waiting; whether one went out."""
    rows = claim(user_id, now)
    if not rows:
        return False
    user = rows[0].recipient
    kinds = sorted({row.kind for row in rows}, key=Kind.values.index)
    unsubscribe_all = absolute(reverse("unsubscribe", args=[unsubscribe_token(user, kinds)]))
    with in_language_of(user):
        message = notifications_mail(user, rows, kinds, unsubscribe_all)
    try:
        message.send()
    except OSError:  # smtplib's errors are OSErrors; the rows stay marked: at most one mail
        logger.exception("Could not mail account %s its notifications", user.pk)
        return False
    return True


def notifications_mail(
    user: User, rows: list[Notification], kinds: list[str], unsubscribe_all: str
) -> EmailMessage:
    """The mail of these notifications, in the active language (the person's)."""
    context = {
        "user": user,
        "items": [{"text": row.text, "link": absolute(row.url)} for row in rows],
        "kinds": [
            {
                "label": Kind(kind).label,
                "link": absolute(reverse("unsubscribe", args=[unsubscribe_token(user, [kind])])),
            }
            for kind in kinds
        ],
        "settings_link": absolute(reverse("settings")),
    }
    many = ngettext("%(count)d thing at your tables", "%(count)d things at your tables", len(rows))
    subject = rows[0].text if len(rows) == 1 else many % {"count": len(rows)}
    return EmailMessage(
        subject=gettext("Bakehouse: %(subject)s") % {"subject": subject},
        body=render_to_string("notifications/mail_body.txt", context),
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_all}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
