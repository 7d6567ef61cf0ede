"""Issue 32, point 3: Web Push. A browser subscribes at Settings; the sweep pushes what is new,
one push a person, signed with the site's VAPID key; a subscription the push service has
forgotten (404, 410) is deleted. Only the network is faked (requests.post)."""

from __future__ import annotations

import base64
import json
import os
from io import StringIO
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command

from accounts.models import User
from games import services
from games.management.commands.vapid_keys import key_pair
from games.models import Game, Notification, PushSubscription
from games.services import notice_push
from games.services.base import invited
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

ENDPOINT = "https://push.example.net/send/abc123"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def browser_keys() -> dict[str, str]:
    """What a browser's PushSubscription.toJSON() gives: its public key and auth secret."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"p256dh": b64url(point), "auth": b64url(os.urandom(16))}


class FakeAnswer:
    def __init__(self, status: int) -> None:
        self.status_code, self.reason, self.text = status, "", ""
        self.headers: dict[str, str] = {}


class PushService:
    """requests.post as the push service answers it, recording what was sent."""

    def __init__(self, status: int = 201) -> None:
        self.status = status
        self.sent: list[dict[str, Any]] = []

    def __call__(self, url: str, **kwargs: Any) -> FakeAnswer:
        self.sent.append({"url": url, **kwargs})
        return FakeAnswer(self.status)


@pytest.fixture
def vapid(settings: Any) -> None:
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = key_pair()


def subscribe(user: User) -> Any:
    body = json.dumps({"endpoint": ENDPOINT, "keys": browser_keys()})
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


def test_a_browser_subscribes_and_unsubscribes(vapid: None, rival: User) -> None:
    assert subscribe(rival).status_code == 200
    assert subscribe(rival).status_code == 200  # the same browser again: one row
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
        json.dumps({"endpoint": "http://plain.example/x", "keys": {"p256dh": "a", "auth": "b"}}),
        json.dumps({"endpoint": ENDPOINT, "keys": {"p256dh": 1, "auth": "b"}}),
    ],
)
def test_a_forged_subscription_is_refused_and_stores_nothing(
    vapid: None, rival: User, body: str
) -> None:
    answer = client_for(rival).post(
        "/games/inbox/push/subscribe/", body, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json() == {"error": "That is not a push subscription."}
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_there_is_no_push(rival: User) -> None:
    answer = subscribe(rival)
    assert answer.status_code == 400
    assert answer.json() == {"error": "This site does not send browser notifications."}
    assert 'id="push-settings"' not in client_for(rival).get("/accounts/settings/").content.decode()


def test_what_arrives_together_is_one_push_signed_with_the_sites_key(
    vapid: None, player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = PushService()
    monkeypatch.setattr(requests, "post", service)
    subscribe(rival)
    invite(player, rival, tables=3)
    assert notice_push.sweep_push() == 1
    (push,) = service.sent
    assert push["url"] == ENDPOINT
    assert push["headers"]["authorization"].startswith("vapid t=")
    assert push["headers"]["content-encoding"] == "aes128gcm"
    assert int(push["headers"]["ttl"]) == notice_push.PUSH_TTL
    assert notice_push.sweep_push() == 0  # each notification is pushed once
    assert len(service.sent) == 1
    assert not Notification.objects.filter(pushed_at=None).exists()


def test_a_subscription_the_push_service_forgot_is_deleted(
    vapid: None, player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(requests, "post", PushService(410))
    subscribe(rival)
    invite(player, rival, tables=1)
    assert notice_push.sweep_push() == 0
    assert not PushSubscription.objects.exists()


def test_a_push_service_error_keeps_the_subscription(
    vapid: None, player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(requests, "post", PushService(500))
    subscribe(rival)
    invite(player, rival, tables=1)
    assert notice_push.sweep_push() == 0
    assert PushSubscription.objects.count() == 1
