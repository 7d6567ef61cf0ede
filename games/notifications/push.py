"""Notifications by Web Push: what is new, one push per person to each browser they subscribed.

Only when the site has VAPID keys (settings; `manage.py vapid_keys` makes a pair). A browser's
subscription is kept only if its endpoint is a push service's (push_policy.py), at most
MOST_BROWSERS per person, and an endpoint moves to another account only with the browser's own
keys; logging out drops the subscriptions made in that log-in (drop_on_logout), and the page's
script unsubscribes the browser (static/js/logout.js). The worker's push lane
(games/live/runner.py) calls sweep_push: every push of a sweep goes at once, each within its
deadline (push_delivery.py, which asks again after a 429 or 5xx, a few times), so one slow push
service holds no other push, and no mail. One browser failing fails alone: it is logged the
first time, counted, and dropped after FAILURES_TO_DROP in a row; a success clears the count; a
Retry-After longer than a sweep waits rests the browser that long (busy, not a failure); a
subscription its push service answers 404 or 410 (forgotten) is deleted at once.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import logging
import re
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as N_

from accounts.languages import in_language_of
from accounts.models import User
from games.notifications import push_delivery, push_policy
from games.notifications.models import Notification, PushSubscription
from games.services import ServiceError

logger = logging.getLogger(__name__)


PUSH_TTL = 24 * 3600  # seconds a push service keeps a push for a browser that is offline
PUSH_GONE = (404, 410)  # the push service forgot the subscription: it is deleted
PUSH_WITHIN = 3600  # seconds: older news is not pushed (a browser subscribed later is not flooded)
MOST_BROWSERS = 10
"""Subscriptions a person keeps: a new one past this drops their oldest, so someone who changes
browsers is never locked out."""
FAILURES_TO_DROP = 5
"""Failed pushes in a row after which a subscription is dropped."""

NOT_A_SUBSCRIPTION = push_policy.NOT_A_SUBSCRIPTION
ANOTHER_ACCOUNTS = N_(
    "Another account already gets notifications at this browser's address: press again to "
    "turn them on with a new one."
)
"""The words for a known endpoint posted with other keys (static/js/push.js then drops the
browser's subscription, so pressing again makes a new endpoint)."""

Built = push_delivery.Push | Exception
"""One browser's push, or what kept it from being built."""
Outcome = push_delivery.Answer | BaseException
"""What became of one push: the push service's answer, or what went wrong."""
SESSION_SALT = "notifications.push-session"


def push_enabled() -> bool:
    """Whether the site has VAPID keys, so it can push."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


BASE64URL = re.compile(r"^[A-Za-z0-9_-]{1,200}={0,2}$")


def decoded(text: str) -> bytes | None:
    """The bytes of a browser's base64url key, or None if it is not base64url."""
    if not BASE64URL.match(text):
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def browser_keys_valid(p256dh: str, auth: str) -> bool:
    """Whether these are a browser's push keys: a P-256 public point and a 16-byte secret."""
    point, secret = decoded(p256dh), decoded(auth)
    if point is None or secret is None or len(secret) != 16 or len(point) != 65:
        return False
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True


def same_keys(browser: PushSubscription, p256dh: str, auth: str) -> bool:
    """Whether the subscription holds these keys (the same browser asking again)."""
    return hmac.compare_digest(browser.p256dh, p256dh) and hmac.compare_digest(browser.auth, auth)


def session_digest(session_key: str | None) -> str:
    """A keyed digest of a log-in session's key ("" for none): what a subscription keeps of the
    log-in that made it, never the key itself."""
    if not session_key:
        return ""
    return salted_hmac(SESSION_SALT, session_key, algorithm="sha256").hexdigest()


def subscribe(
    user: User, endpoint: str, p256dh: str, auth: str, session_key: str | None = None
) -> PushSubscription:
    """Keep a browser's push subscription for the person, bound to this log-in (its session).
    An endpoint another account holds moves to them only with the same keys (the same browser,
    someone else signed in); past MOST_BROWSERS the person's oldest subscription goes."""
    session = session_digest(session_key)
    if not push_enabled():
        raise ServiceError(gettext("This site does not send browser notifications."))
    refusal = push_policy.endpoint_refusal(endpoint)
    if refusal is not None:
        raise ServiceError(refusal)
    if not browser_keys_valid(p256dh, auth):
        raise ServiceError(gettext(NOT_A_SUBSCRIPTION))
    with transaction.atomic():
        found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if found is None:
            found = PushSubscription.objects.create(
                user=user, endpoint=endpoint, p256dh=p256dh, auth=auth, session=session
            )
        elif found.user_id != user.pk and not same_keys(found, p256dh, auth):
            raise ServiceError(gettext(ANOTHER_ACCOUNTS))
        else:
            found.user, found.p256dh, found.auth, found.failures = user, p256dh, auth, 0
            found.session, found.resting_until = session, None
            fields = ["user", "p256dh", "auth", "failures", "session", "resting_until"]
            found.save(update_fields=fields)
        keep_latest_browsers(user)
    return found


def keep_latest_browsers(user: User) -> int:
    """Drop the person's subscriptions but the newest MOST_BROWSERS; how many went."""
    kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
    old = list(kept.values_list("pk", flat=True)[MOST_BROWSERS:])
    return PushSubscription.objects.filter(pk__in=old).delete()[0] if old else 0


def unsubscribe_browser(user: User, endpoint: str) -> bool:
    """Forget the person's subscription at this endpoint; whether there was one."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def drop_on_logout(
    sender: object, request: HttpRequest | None, user: User | None, **_: object
) -> int:
    """Logging out drops the push subscriptions made in that log-in (user_logged_out): the
    browser stops getting the person's news; how many went."""
    key = request.session.session_key if request is not None else None
    if user is None or not key:
        return 0
    mine = PushSubscription.objects.filter(user_id=user.pk, session=session_digest(key))
    return mine.delete()[0]


def to_push(now: datetime) -> QuerySet[Notification]:
    """Unread notifications not pushed yet, recent enough."""
    since = now - timedelta(seconds=PUSH_WITHIN)
    return Notification.objects.filter(pushed_at=None, read_at=None, created_at__gte=since)


def sweep_push(now: datetime | None = None) -> int:
    """Push each subscribed person what is new, one push a person to each of their browsers,
    all at once; to how many people a push went."""
    if not push_enabled():
        return 0
    now = now or timezone.now()
    subscribed = PushSubscription.objects.values("user_id")
    due = to_push(now).filter(recipient_id__in=subscribed).values_list("recipient_id", flat=True)
    people = sorted(set(due))
    if not people:
        return 0
    vapid = push_delivery.site_key(settings.VAPID_PRIVATE_KEY, settings.VAPID_SUBJECT)
    built: list[tuple[PushSubscription, Built]] = []
    for user_id in people:
        payload = claim(user_id, now)
        if payload is not None:
            mine = browsers(user_id, now)
            built += [(browser, made(browser, payload, vapid)) for browser in mine]
    ready = [(browser, push) for browser, push in built if isinstance(push, push_delivery.Push)]
    if ready and not connection.in_atomic_block:
        # The network wait (up to PUSH_DEADLINE a push, with its retries) holds no database
        # connection: a pooled one goes back to the pool, and settle takes one again after.
        connection.close()
    sent = push_delivery.deliver([push for _, push in ready])
    outcomes: list[tuple[PushSubscription, Outcome]] = [
        (browser, push) for browser, push in built if isinstance(push, Exception)
    ]
    outcomes += [(browser, answer) for (browser, _), answer in zip(ready, sent, strict=True)]
    took = {browser.user_id for browser, outcome in outcomes if settle(browser, outcome, now)}
    return len(took)


def browsers(user_id: int, now: datetime | None = None) -> list[PushSubscription]:
    """The person's subscriptions, oldest first, but those resting (their push service asked
    for a pause: Retry-After)."""
    awake = Q(resting_until=None) | Q(resting_until__lte=now or timezone.now())
    mine = PushSubscription.objects.filter(awake, user_id=user_id)
    return list(mine.order_by("created_at", "pk"))


def claim(user_id: int, now: datetime) -> bytes | None:
    """Mark the person's new notifications pushed, in one transaction (another process sweeping
    at once skips the rows locked here); the push's payload, or None if none were left."""
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
        return None
    if len(rows) == 1:
        body, url = rows[0].text, rows[0].url
    else:
        with in_language_of(User.objects.filter(pk=user_id).first()):
            many = ngettext(
                "%(count)d thing at your tables.", "%(count)d things at your tables.", len(rows)
            )
        body, url = many % {"count": len(rows)}, reverse("games:inbox")
    return json.dumps({"title": "Bakehouse", "body": body, "url": url}).encode()


def made(browser: PushSubscription, payload: bytes, vapid: object) -> Built:
    """The push for one browser, or what kept it from being built (it fails alone)."""
    try:
        return push_delivery.build(
            browser.info, payload, vapid, settings.VAPID_SUBJECT, ttl=PUSH_TTL
        )
    except Exception as error:  # a subscription stored before the checks, forged keys, ...
        return error


def settle(browser: PushSubscription, outcome: Outcome, now: datetime | None = None) -> bool:
    """Record what became of one push on its subscription; whether the push service took it. A
    Retry-After it did not wait for rests the browser that long."""
    answer = outcome if isinstance(outcome, push_delivery.Answer) else None
    if answer is not None and 200 <= answer.status < 300:
        if browser.failures or browser.resting_until is not None:
            PushSubscription.objects.filter(pk=browser.pk).update(failures=0, resting_until=None)
        return True
    if answer is not None and answer.status in PUSH_GONE:
        PushSubscription.objects.filter(pk=browser.pk).delete()
        return False
    if answer is not None and answer.again and answer.retry_after:
        # The service is busy and said for how long: the browser waits, it has not failed.
        until = (now or timezone.now()) + timedelta(seconds=answer.retry_after)
        PushSubscription.objects.filter(pk=browser.pk).update(resting_until=until)
        return False
    failed(browser, outcome)
    return False


def why(outcome: Outcome) -> str:
    """A failed push in words for the log."""
    if isinstance(outcome, push_delivery.Answer):
        return f"the push service answered {outcome.status}"
    return f"{type(outcome).__name__}: {outcome}" if str(outcome) else type(outcome).__name__


def failed(browser: PushSubscription, outcome: Outcome) -> None:
    """Count a failed push on its subscription: logged the first time in a row, dropped at
    FAILURES_TO_DROP."""
    if browser.failures + 1 >= FAILURES_TO_DROP:
        PushSubscription.objects.filter(pk=browser.pk).delete()
        return
    PushSubscription.objects.filter(pk=browser.pk).update(failures=F("failures") + 1)
    if browser.failures == 0:
        logger.warning(
            "A push to a browser of account %s at %s failed (%s); it is dropped after %s "
            "failures in a row",
            browser.user_id,
            endpoint_host(browser.endpoint),
            why(outcome),
            FAILURES_TO_DROP,
        )


def endpoint_host(endpoint: str) -> str:
    """The host an endpoint names, for the log (the rest of it is the browser's secret)."""
    try:
        return urlsplit(endpoint).hostname or "?"
    except ValueError:
        return "?"
