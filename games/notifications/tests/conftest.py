"""What the notification tests share: the site's VAPID keys and Web Push's network on loopback
(push_services.py); the clock moved by hand and a moderator are the suite's (tests/fixtures.py);
bots move inline here."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.notifications.tests.push_services import TEST_DOMAIN, LoopbackOnly, NameLookup, PushNet


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Bots move inline in this folder: the tests read the notifications a game's end or a
    bot's move makes as soon as a service returns (tests/fixtures.py: bots_inline).
    test_push_safety.py puts the runner's path back to test it."""


@pytest.fixture
def vapid(settings: Any) -> None:
    """The site has a VAPID key pair, so it offers and sends browser notifications."""
    from games.notifications.management.commands.vapid_keys import key_pair

    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = key_pair()


@pytest.fixture
def push_hosts(settings: Any) -> None:
    """The tests' push services (under example.net) are on PUSH_SERVICE_HOSTS too."""
    settings.PUSH_SERVICE_HOSTS = [*settings.PUSH_SERVICE_HOSTS, f"*.{TEST_DOMAIN}"]


@pytest.fixture
def push_net(
    vapid: None, push_hosts: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[PushNet]:
    """Web Push's network on loopback (push_services.py): test names resolve where the test says,
    the sender trusts the test CA, and any connection off loopback is refused."""
    lookup = NameLookup(socket.getaddrinfo)
    guard = LoopbackOnly()
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    monkeypatch.setattr(socket.socket, "connect", guard.guarding(socket.socket.connect))
    monkeypatch.setattr(socket.socket, "connect_ex", guard.guarding(socket.socket.connect_ex))
    net = PushNet(tmp_path, lookup, guard)
    monkeypatch.setenv("SSL_CERT_FILE", str(net.ca))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(net.ca))
    yield net
    net.close()


@pytest.fixture
def loopback_push_services(monkeypatch: pytest.MonkeyPatch) -> None:
    """The address policy lets the tests' push services on 127.0.0.1 through (and nothing
    else it would not)."""
    from games.notifications import push_policy

    public = push_policy.public_address
    monkeypatch.setattr(
        push_policy, "public_address", lambda address: address == "127.0.0.1" or public(address)
    )
