"""Notifications by Web Push: what is new, one push per person to each browser they subscribed.

Only when the site has VAPID keys (settings; `manage.py vapid_keys` makes a pair). The worker's
sender thread (games/live/runner.py) calls sweep_push; a subscription the push service answers
404 or 410 is deleted.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from pywebpush import WebPushException, webpush
from requests import RequestException

from accounts.models import User
from games.models import Notification, PushSubscription
from games.services.base import ServiceError

logger = logging.getLogger(__name__)


PUSH_TTL = 24 * 3600  # seconds a push service keeps a push for a browser that is offline
PUSH_GONE = (404, 410)  # the push service forgot the subscription: it is deleted
PUSH_WITHIN = 3600  # seconds: older news is not pushed (a browser subscribed later is not flooded)


def push_enabled() -> bool:
    """Whether the site has VAPID keys, so it can push."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def subscribe(user: User, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep a browser's push subscription for the person (a known endpoint moves to them)."""
    if not push_enabled():
        raise ServiceError("This site does not send browser notifications.")
    if not endpoint.startswith("https://") or len(endpoint) > 1000:
        raise ServiceError("That is not a push subscription.")
    if not (0 < len(p256dh) <= 200 and 0 < len(auth) <= 100):
        raise ServiceError("That is not a push subscription.")
    found, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
    )
    return found


def unsubscribe_browser(user: User, endpoint: str) -> bool:
    """Forget the person's subscription at this endpoint; whether there was one."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def to_push(now: datetime) -> QuerySet[Notification]:
    """Unread notifications not pushed yet, recent enough."""
    since = now - timedelta(seconds=PUSH_WITHIN)
    return Notification.objects.filter(pushed_at=None, read_at=None, created_at__gte=since)


def sweep_push(now: datetime | None = None) -> int:
    """Push each subscribed person what is new, one push a person; how many people."""
    if not push_enabled():
        return 0
    now = now or timezone.now()
    subscribed = PushSubscription.objects.values("user_id")
    due = to_push(now).filter(recipient_id__in=subscribed).values_list("recipient_id", flat=True)
    return sum(push_one(user_id, now) for user_id in sorted(set(due)))


def push_one(user_id: int, now: datetime) -> bool:
    """Push the person's new notifications to each of their browsers; whether any took it."""
    with transaction.atomic():
        rows = list(
            to_push(now)
            .filter(recipient_id=user_id)
            .select_for_update(skip_locked=True)
            .order_by("created_at", "pk")
        )
        Notification.objects.filter(pk__in=[r.pk for r in rows], pushed_at=None).update(
            pushed_at=now
        )
    if not rows:
        return False
    if len(rows) == 1:
        body, url = rows[0].text, rows[0].url
    else:
        body, url = f"{len(rows)} things at your tables.", reverse("games:inbox")
    payload = json.dumps({"title": "Bakehouse", "body": body, "url": url})
    sent = [
        push_to(browser, payload) for browser in PushSubscription.objects.filter(user_id=user_id)
    ]
    return any(sent)


def push_to(browser: PushSubscription, payload: str) -> bool:
    """Send one push to one browser; a subscription its push service forgot is deleted."""
    claims: dict[str, str | int] = {"sub": settings.VAPID_SUBJECT}
    try:
        webpush(
            browser.info,
            payload,
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims=claims,
            ttl=PUSH_TTL,
            timeout=10,
        )
    except WebPushException as refused:
        if refused.status_code in PUSH_GONE:
            browser.delete()
        else:
            logger.warning("A push to a browser of account %s failed: %s", browser.user_id, refused)
        return False
    except RequestException:
        logger.warning("A push service did not answer for account %s", browser.user_id)
        return False
    return True
