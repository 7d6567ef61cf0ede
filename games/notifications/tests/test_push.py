"""Issue 32, point 3: Web Push. A browser subscribes at Settings; the sweep pushes what is new,
one push a person, encrypted to the browser's keys and signed with the site's VAPID key; a
subscription the push service has forgotten (404, 410) is deleted. The push services are HTTPS
servers on loopback (push_services.py, beside this file) that take the pushes as a real one
would."""

from __future__ import annotations

import base64
import json
import os
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from py_vapid import Vapid02
from py_vapid.utils import b64urldecode

from accounts.models import User
from games import services
from games.events import invited
from games.models import Game
from games.notifications import push as browser_push
from games.notifications import push_delivery
from games.notifications.models import Notification, PushSubscription
from games.notifications.tests.push_services import PushNet
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

ENDPOINT = "https://push.example.net/send/abc123"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Browser:
    """A browser's push keys: what its PushSubscription.toJSON() gives, and its private key to
    read a push as the browser would."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.secret = os.urandom(16)
        self.keys = {"p256dh": b64url(point), "auth": b64url(self.secret)}

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.private, auth_secret=self.secret, version="aes128gcm"
        )
        return json.loads(plain)


def browser_keys() -> dict[str, str]:
    """What a browser's PushSubscription.toJSON() gives: its public key and auth secret."""
    return Browser().keys


def subscribe(user: User, keys: dict[str, str] | None = None) -> Any:
    body = json.dumps({"endpoint": ENDPOINT, "keys": keys or browser_keys()})
    return client_for(user).post(
        "/games/inbox/push/subscribe/", body, content_type="application/json"
    )


def invite(host: User, guest: User, tables: int) -> None:
    for capacity in range(2, 2 + tables):
        game = services.create_game(host, "cakehalla", capacity)
        invited.send(Game, game_id=game.pk, by=host.pk, to=[guest.pk])


def test_the_command_makes_a_key_pair() -> None:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    public = base64.urlsafe_b64decode(lines["VAPID_PUBLIC_KEY"] + "==")
    private = base64.urlsafe_b64decode(lines["VAPID_PRIVATE_KEY"] + "==")
    assert len(public) == 65 and public[0] == 4 and len(private) == 32


def test_a_browser_subscribes_and_unsubscribes(vapid: None, push_hosts: None, rival: User) -> None:
    keys = browser_keys()
    assert subscribe(rival, keys).status_code == 200
    assert subscribe(rival, keys).status_code == 200  # the same browser again: one row
    assert list(PushSubscription.objects.values_list("user", "endpoint")) == [(rival.pk, ENDPOINT)]
    page = client_for(rival).get("/accounts/settings/").content.decode()
    assert 'id="push-settings"' in page
    body = json.dumps({"endpoint": ENDPOINT, "keys": {}})
    client_for(rival).post("/games/inbox/push/unsubscribe/", body, content_type="application/json")
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        json.dumps(["a", "list"]),
        json.dumps({"endpoint": ENDPOINT}),
        json.dumps({"endpoint": ENDPOINT, "keys": {"p256dh": 1, "auth": "b"}}),
        json.dumps({"endpoint": ENDPOINT, "keys": {"p256dh": "a", "auth": "b"}}),
        json.dumps({"endpoint": ENDPOINT, "keys": {**browser_keys(), "auth": b64url(b"short")}}),
    ],
    # Named, not by their text: the last holds a key made anew in each test process, and xdist
    # refuses a run whose processes collected different names.
    ids=["not-json", "a-list", "no-keys", "a-number-key", "keys-too-short", "auth-too-short"],
)
def test_a_forged_subscription_is_refused_and_stores_nothing(
    vapid: None, push_hosts: None, rival: User, body: str
) -> None:
    answer = client_for(rival).post(
        "/games/inbox/push/subscribe/", body, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json() == {"error": "That is not a push subscription."}
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_there_is_no_push(push_hosts: None, rival: User) -> None:
    answer = subscribe(rival)
    assert answer.status_code == 400
    assert answer.json() == {"error": "This site does not send browser notifications."}
    assert 'id="push-settings"' not in client_for(rival).get("/accounts/settings/").content.decode()


def test_what_arrives_together_is_one_push_signed_with_the_sites_key(
    push_net: PushNet, loopback_push_services: None, player: User, rival: User, settings: Any
) -> None:
    service = push_net.service("push.example.net")
    browser = Browser()
    subscribe(rival, browser.keys)
    invite(player, rival, tables=3)
    assert browser_push.sweep_push() == 1
    (push,) = service.received
    assert push["line"] == "POST /send/abc123 HTTP/1.1"
    assert push["headers"]["content-encoding"] == "aes128gcm"
    assert int(push["headers"]["ttl"]) == browser_push.PUSH_TTL
    signed = push["headers"]["authorization"]
    assert Vapid02.verify(signed)
    fields = dict(part.split("=", 1) for part in signed.removeprefix("vapid ").split(","))
    assert fields["k"] == settings.VAPID_PUBLIC_KEY  # signed with the site's key
    claims = json.loads(b64urldecode(fields["t"].split(".")[1].encode()))
    assert claims["aud"] == "https://push.example.net"
    assert browser.read(push["body"]) == {
        "title": "Bakehouse",
        "body": "3 things at your tables.",
        "url": "/games/inbox/",
    }
    assert browser_push.sweep_push() == 0  # each notification is pushed once
    assert len(service.received) == 1
    assert not Notification.objects.filter(pushed_at=None).exists()


def test_a_subscription_the_push_service_forgot_is_deleted(
    push_net: PushNet, loopback_push_services: None, player: User, rival: User
) -> None:
    service = push_net.service("push.example.net", status=410)
    subscribe(rival)
    invite(player, rival, tables=1)
    assert browser_push.sweep_push() == 0
    assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


def test_a_push_service_error_keeps_the_subscription_and_counts_it(
    push_net: PushNet, loopback_push_services: None, player: User, rival: User
) -> None:
    service = push_net.service("push.example.net", status=500)
    subscribe(rival)
    invite(player, rival, tables=1)
    assert browser_push.sweep_push() == 0
    assert len(service.received) == push_delivery.TRIES  # asked again, a few times at most
    assert list(PushSubscription.objects.values_list("failures", flat=True)) == [1]


@pytest.mark.parametrize("first", [((503, ""),), ((429, "0"),), ((500, ""), (429, "1"))])
def test_a_push_service_busy_for_a_moment_is_asked_again_and_takes_the_push(
    push_net: PushNet,
    loopback_push_services: None,
    player: User,
    rival: User,
    first: tuple[tuple[int, str], ...],
) -> None:
    service = push_net.service("push.example.net", status=201, first=first)
    subscribe(rival)
    invite(player, rival, tables=1)
    assert browser_push.sweep_push() == 1
    assert len(service.received) == len(first) + 1
    assert list(PushSubscription.objects.values_list("failures", flat=True)) == [0]


def test_a_long_retry_after_rests_the_browser_that_long(
    push_net: PushNet, loopback_push_services: None, player: User, rival: User
) -> None:
    service = push_net.service("push.example.net", status=201, first=((429, "120"),))
    subscribe(rival)
    invite(player, rival, tables=1)
    before = timezone.now()
    assert browser_push.sweep_push() == 0
    assert len(service.received) == 1  # not waited for within the sweep
    browser = PushSubscription.objects.get()
    assert browser.failures == 0 and browser.resting_until is not None  # busy, not broken
    assert before + timedelta(seconds=119) <= browser.resting_until
    invite(player, rival, tables=1)
    assert browser_push.sweep_push() == 0
    assert len(service.received) == 1  # resting: nothing sent before its Retry-After
    PushSubscription.objects.update(resting_until=timezone.now() - timedelta(seconds=1))
    invite(player, rival, tables=1)
    assert browser_push.sweep_push() == 1
    assert len(service.received) == 2


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("30", 30.0),
        ("Sun, 06 Dec 2026 22:01:00 GMT", 60.0),
        ("Sun, 06 Dec 2026 21:00:00 GMT", 0.0),
        ("99999999", 3600.0),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_is_read_as_seconds_or_a_date(
    header: str | None, seconds: float | None
) -> None:
    now = datetime(2026, 12, 6, 22, 0, tzinfo=UTC).timestamp()
    assert push_delivery.retry_after(header, now) == seconds


def subscribe_at(client: Client, endpoint: str) -> None:
    body = json.dumps({"endpoint": endpoint, "keys": browser_keys()})
    answer = client.post("/games/inbox/push/subscribe/", body, content_type="application/json")
    assert answer.status_code == 200


def test_logging_out_drops_the_subscription_made_in_that_log_in_only(
    vapid: None, push_hosts: None, rival: User
) -> None:
    here, elsewhere = client_for(rival), client_for(rival)
    subscribe_at(here, ENDPOINT)
    subscribe_at(elsewhere, ENDPOINT + "-elsewhere")
    assert here.post("/accounts/logout/").status_code == 302
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        ENDPOINT + "-elsewhere"
    ]
    stored = PushSubscription.objects.get()
    key = elsewhere.session.session_key
    assert key and stored.session and key not in stored.session  # a digest, never the key
