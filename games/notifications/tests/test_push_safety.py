"""Issue 38, hole 1, the push half of hole 2, and hole 6's moved subscriptions: a push goes only
to a push service browsers use, never to a private, loopback or link-local address whatever the
name resolves to, never after a redirect, within a deadline; one slow or broken subscription
holds no one else's push or mail and fails alone; an account keeps few subscriptions, and
cannot take another's by knowing its endpoint.

Every connection stays on loopback: names resolve where the test says (push_net), and a guard
refuses, and records, any connection elsewhere, so a private address is never reached even by
code that would try.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from django.db import connections

from accounts.models import User
from games import services
from games.events import invited
from games.live.runner import RUNNER
from games.models import Game
from games.notifications import push as browser_push
from games.notifications import push_delivery, push_policy
from games.notifications import services as notifications
from games.notifications.models import Notification, PushSubscription
from games.notifications.tests.push_services import WAIT, PushNet
from games.notifications.tests.test_push import Browser, browser_keys
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def subscribe(user: User, endpoint: str, keys: dict[str, str] | None = None) -> Any:
    body = json.dumps({"endpoint": endpoint, "keys": keys or browser_keys()})
    return client_for(user).post(
        "/games/inbox/push/subscribe/", body, content_type="application/json"
    )


def stored(user: User, endpoint: str, keys: dict[str, str] | None = None) -> PushSubscription:
    """A subscription as a row, as one stored before the checks would be."""
    return PushSubscription.objects.create(user=user, endpoint=endpoint, **(keys or browser_keys()))


def invite(host: User, people: list[User]) -> Game:
    game = services.create_game(host, "cakehalla", 2)
    invited.send(Game, game_id=game.pk, by=host.pk, to=[p.pk for p in people])
    return game


def news(people: list[User], n: int) -> None:
    """Something new for these people (the n-th time), as a friend's request would be told."""
    keys = {person.pk: f"news:{n}" for person in people}
    notifications.tell(None, Notification.Kind.FRIEND, keys, "alice wants to be your friend.", "/")


def opted_in_to_mail(user: User) -> User:
    user.email, user.email_verified, user.mail_invite = f"{user.username}@example.com", True, True
    user.save()
    return user


OFF_THE_LIST = "This site sends notifications only to the push services browsers use, not {}."


@pytest.mark.parametrize(
    ("endpoint", "said"),
    [
        (
            "https://127.0.0.1:8912/latest/meta-data/",
            "A push subscription's address may not name a port other than 443.",
        ),
        (
            "https://169.254.169.254/latest/meta-data/",
            "A push subscription's address must name a push service, not an IP address.",
        ),
        (
            "https://[::1]/send/x",
            "A push subscription's address must name a push service, not an IP address.",
        ),
        (
            "https://10.0.0.5/send/x",
            "A push subscription's address must name a push service, not an IP address.",
        ),
        (
            "https://user:pass@fcm.googleapis.com/fcm/send/x",
            "A push subscription's address may not carry a user name or password.",
        ),
        (
            "https://fcm.googleapis.com:6379/fcm/send/x",
            "A push subscription's address may not name a port other than 443.",
        ),
        (
            "http://fcm.googleapis.com/fcm/send/x",
            "A push subscription's address must start with https://.",
        ),
        ("https://localhost/send/x", OFF_THE_LIST.format("localhost")),
        ("https://metadata.google.internal/x", OFF_THE_LIST.format("metadata.google.internal")),
        (
            "https://fcm.googleapis.com.evil.example/x",
            OFF_THE_LIST.format("fcm.googleapis.com.evil.example"),
        ),
        (
            "https://notify.windows.com.evil.example/x",
            OFF_THE_LIST.format("notify.windows.com.evil.example"),
        ),
        ("https://2130706433/x", OFF_THE_LIST.format("2130706433")),
        ("https://fcm.googleapis.com\\@127.0.0.1/x", "That is not a push subscription."),
        ("https://fcm.googleapis.com/ x", "That is not a push subscription."),
        ("https://fcm.googleapis.com/" + "x" * 1000, "That is not a push subscription."),
    ],
)
def test_an_endpoint_that_is_no_push_services_is_refused_in_words_and_stores_nothing(
    vapid: None, rival: User, endpoint: str, said: str
) -> None:
    answer = subscribe(rival, endpoint)
    assert answer.status_code == 400
    assert answer.json() == {"error": said}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/fv3jabydF5c:APA91bEc8gXeukGXEvq",  # Chrome
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",  # Firefox
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",  # Edge
        "https://web.push.apple.com/QGuQyavXutnMH",  # Safari
        "https://FCM.googleapis.com:443/fcm/send/upper",
    ],
)
def test_the_push_services_browsers_use_are_taken(vapid: None, rival: User, endpoint: str) -> None:
    assert subscribe(rival, endpoint).status_code == 200
    assert PushSubscription.objects.get().endpoint == endpoint


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),
        ("100.64.0.1", False),
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("255.255.255.255", False),
        ("::1", False),
        ("::", False),
        ("fe80::1%eth0", False),
        ("fd00::1", False),
        ("ff02::1", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:169.254.169.254", False),
        ("2002:a9fe:a9fe::1", False),  # 6to4 of 169.254.169.254
        ("64:ff9b::a01:203", False),  # NAT64 of 10.1.2.3
        ("not an address", False),
        ("142.250.74.74", True),
        ("2a00:1450:4007:80e::200a", True),
        ("::ffff:142.250.74.74", True),
    ],
)
def test_only_public_addresses_may_be_pushed_to(address: str, public: bool) -> None:
    assert push_policy.public_address(address) is public


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "::1", "10.1.2.3", "169.254.169.254", "100.64.0.1", "::ffff:127.0.0.1"]
)
def test_no_push_goes_to_a_listed_name_that_resolves_to_a_private_address(
    push_net: PushNet, player: User, rival: User, address: str
) -> None:
    listener = push_net.listener("push.example.net", address)
    stored(rival, "https://push.example.net/send/abc")
    invite(player, [rival])
    assert browser_push.sweep_push() == 0
    assert listener.connections() == 0
    assert push_net.guard.refused == []  # not even tried
    assert PushSubscription.objects.get().failures == 1


def test_a_push_connects_only_to_the_address_that_was_checked(
    push_net: PushNet, player: User, rival: User
) -> None:
    listener = push_net.listener("push.example.net", "127.0.0.1")
    push_net.lookup.names["push.example.net"] = ("142.250.74.74", 443)  # public: it passes
    push_net.lookup.later["push.example.net"] = ("127.0.0.1", listener.port)  # then rebinds
    stored(rival, "https://push.example.net/send/abc")
    invite(player, [rival])
    assert browser_push.sweep_push() == 0
    assert listener.connections() == 0
    assert push_net.guard.refused == [
        "142.250.74.74"
    ]  # the very address checked (kept on loopback)


def test_a_redirect_is_a_failed_push_and_is_never_followed(
    push_net: PushNet, loopback_push_services: None, player: User, rival: User
) -> None:
    second = push_net.listener("second.example.net", "127.0.0.1")
    target = f"http://127.0.0.1:{second.port}/latest/meta-data/iam/security-credentials/"
    first = push_net.service("push.example.net", status=307, location=target)
    stored(rival, "https://push.example.net/send/abc")
    invite(player, [rival])
    assert browser_push.sweep_push() == 0
    assert len(first.received) == 1
    assert second.connections() == 0
    assert PushSubscription.objects.get().failures == 1


def run_aside(work: Callable[[], Any]) -> threading.Event:
    """Run work on a thread of its own; the event is set when it returned."""
    done = threading.Event()

    def run() -> None:
        try:
            work()
        finally:
            connections.close_all()
            done.set()

    threading.Thread(target=run, daemon=True).start()
    return done


@pytest.mark.django_db(transaction=True)
def test_a_push_that_drips_is_cut_off_at_its_deadline(
    push_net: PushNet,
    loopback_push_services: None,
    player: User,
    rival: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(push_delivery, "PUSH_DEADLINE", 0.5)
    tarpit = push_net.service("tarpit.example.net", drip=0.05)  # a byte every 50 ms, for ever
    stored(rival, "https://tarpit.example.net/send/slow")
    invite(player, [rival])
    swept = run_aside(browser_push.sweep_push)
    try:
        assert swept.wait(WAIT), "the sweep waited on the dripping push service"
        assert tarpit.hung_up.wait(WAIT)  # the sender hung up on it: it never stopped dripping
    finally:
        tarpit.let_go.set()
    assert PushSubscription.objects.get().failures == 1


@pytest.mark.django_db(transaction=True)
def test_in_one_sweep_a_push_service_that_holds_its_push_delays_no_other_push(
    push_net: PushNet,
    loopback_push_services: None,
    make_user: Callable[[str], User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(push_delivery, "PUSH_DEADLINE", 4 * WAIT)  # it holds the whole test
    host, slow, other = (make_user(name) for name in ("alice", "bob", "carol"))
    tarpit = push_net.service("tarpit.example.net", drip=0.2)
    quick = push_net.service("quick.example.net")
    stored(slow, "https://tarpit.example.net/send/slow")  # bob's comes first in the sweep
    stored(other, "https://quick.example.net/send/quick")
    invite(host, [slow, other])
    swept = run_aside(browser_push.sweep_push)
    try:
        assert tarpit.holding.wait(WAIT)
        assert quick.took.wait(WAIT), "carol's push waited on bob's"
        assert not swept.is_set() and not tarpit.hung_up.is_set()  # bob's still held
    finally:
        tarpit.let_go.set()
    assert swept.wait(WAIT)


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait until the check holds (bounded by WAIT)."""
    probe = database_sync_to_async(check)
    for _ in range(int(WAIT / 0.02)):
        if await probe():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting until {what}")


@pytest.mark.django_db(transaction=True)
async def test_a_push_service_that_holds_its_push_delays_no_one_elses_push_or_mail(
    push_net: PushNet,
    loopback_push_services: None,
    make_user: Callable[[str], User],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.BOT_MOVES, settings.BOT_SWEEP_SECONDS = "after-commit", 0.05
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.NOTIFICATION_MAIL_AFTER = 0
    monkeypatch.setattr(push_delivery, "PUSH_DEADLINE", 4 * WAIT)  # it holds the whole test
    host, slow, other = [
        await database_sync_to_async(make_user)(name) for name in ("alice", "bob", "carol")
    ]
    tarpit = push_net.service("tarpit.example.net", drip=0.2)
    quick = push_net.service("quick.example.net")
    await database_sync_to_async(stored)(slow, "https://tarpit.example.net/send/slow")
    await database_sync_to_async(stored)(other, "https://quick.example.net/send/quick")
    await database_sync_to_async(opted_in_to_mail)(other)
    RUNNER.start()
    try:
        await database_sync_to_async(invite)(host, [slow])
        await until(tarpit.holding.is_set, "the push service held bob's push")
        await database_sync_to_async(invite)(host, [other])
        await until(lambda: len(mail.outbox) == 1, "carol's invitation was mailed")
        await until(lambda: len(quick.received) == 1, "carol's invitation was pushed")
        assert tarpit.holding.is_set() and not tarpit.hung_up.is_set()  # still holding bob's
        assert mail.outbox[0].to == ["carol@example.com"]
    finally:
        tarpit.let_go.set()
        await RUNNER.stop()


def test_a_subscription_that_cannot_be_pushed_fails_alone_once_logged_then_goes(
    push_net: PushNet,
    loopback_push_services: None,
    make_user: Callable[[str], User],
    caplog: pytest.LogCaptureFixture,
) -> None:
    broken, fine = (make_user(name) for name in ("bob", "carol"))
    quick = push_net.service("quick.example.net")
    bad = [
        stored(broken, "https://user:pass@quick.example.net/send/a"),  # stored before the checks
        stored(broken, "https://[::1]/send/b"),
        stored(broken, "https://quick.example.net/send/c", {"p256dh": "AAAA", "auth": "AAAA"}),
    ]
    browser = Browser()
    good = stored(fine, "https://quick.example.net/send/good", browser.keys)
    caplog.set_level(logging.WARNING, logger=browser_push.__name__)
    for sweep in range(1, browser_push.FAILURES_TO_DROP + 1):
        news([broken, fine], sweep)
        assert browser_push.sweep_push() == 1  # carol's went out all the same
        assert len(quick.received) == sweep
        left = PushSubscription.objects.filter(pk__in=[row.pk for row in bad])
        if sweep < browser_push.FAILURES_TO_DROP:
            assert sorted(left.values_list("failures", flat=True)) == [sweep] * 3
        else:
            assert not left.exists()
    assert len(caplog.records) == 3  # each broken subscription once, not every sweep
    assert all(f"account {broken.pk}" in record.getMessage() for record in caplog.records)
    assert PushSubscription.objects.get(pk=good.pk).failures == 0
    assert browser.read(quick.received[-1]["body"])["body"] == "alice wants to be your friend."


def test_a_success_clears_the_count_of_failures(
    push_net: PushNet, loopback_push_services: None, player: User, rival: User
) -> None:
    service = push_net.service("push.example.net", status=500)
    row = stored(rival, "https://push.example.net/send/abc")
    for n in range(browser_push.FAILURES_TO_DROP - 1):
        news([rival], n)
        browser_push.sweep_push()
    service.status = 201
    news([rival], browser_push.FAILURES_TO_DROP)
    assert browser_push.sweep_push() == 1
    assert PushSubscription.objects.get(pk=row.pk).failures == 0


def test_an_account_keeps_only_its_newest_subscriptions(
    vapid: None, push_hosts: None, rival: User
) -> None:
    most = browser_push.MOST_BROWSERS
    endpoints = [f"https://push.example.net/send/{n}" for n in range(most + 2)]
    for endpoint in endpoints:
        assert subscribe(rival, endpoint).status_code == 200
    kept = set(PushSubscription.objects.filter(user=rival).values_list("endpoint", flat=True))
    assert kept == set(endpoints[2:])


def test_an_endpoint_moves_to_another_account_only_with_the_same_browsers_keys(
    vapid: None, push_hosts: None, player: User, rival: User
) -> None:
    endpoint = "https://push.example.net/send/shared"
    keys = browser_keys()
    assert subscribe(rival, endpoint, keys).status_code == 200
    answer = subscribe(player, endpoint)  # knows the endpoint, not the browser's keys
    assert answer.status_code == 400
    assert answer.json() == {"error": browser_push.ANOTHER_ACCOUNTS}
    row = PushSubscription.objects.get()
    assert (row.user_id, row.p256dh, row.auth) == (rival.pk, keys["p256dh"], keys["auth"])
    assert subscribe(player, endpoint, keys).status_code == 200  # the same browser, alice now
    assert PushSubscription.objects.get().user_id == player.pk
