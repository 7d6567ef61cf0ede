"""The websocket Origin check: the site's own scheme, host and port, or a trusted origin."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from bakery_site.asgi import application
from games.models import Game
from games.routing import websocket_urlpatterns
from tests.support.sockets import Communicator, session_of

pytestmark = pytest.mark.django_db(transaction=True)


async def opens(game: Game, user: User, origin: str, host: str | None, **extra: str) -> bool:
    """Whether the user's socket to the game opens with these handshake headers."""
    session = await database_sync_to_async(session_of)(user)
    headers = [(b"origin", origin.encode()), (b"cookie", f"sessionid={session}".encode())]
    if host is not None:
        headers.append((b"host", host.encode()))
    headers += [(name.replace("_", "-").encode(), value.encode()) for name, value in extra.items()]
    ws = Communicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await ws.connect()
    if connected:
        await ws.disconnect()
    return connected


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://testserver", "testserver"),
        ("http://testserver:8000", "testserver:8000"),
        ("http://localhost:8000", "localhost:8000"),
        ("http://testserver", None),
    ],
)
async def test_the_sites_own_origin_opens(
    running_game: Game, player: User, origin: str, host: str | None
) -> None:
    assert await opens(running_game, player, origin, host)


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://testserver:8001", "testserver"),
        ("http://localhost:9000", "localhost:8000"),
        ("https://testserver", "testserver"),
        ("https://localhost:8000", "localhost:8000"),
        ("http://evil.example", "testserver"),
        ("http://evil.example:8000", "evil.example:8000"),
        ("null", "testserver"),
        ("https://testserver", None),
    ],
)
async def test_a_cross_origin_socket_is_refused(
    running_game: Game, player: User, origin: str, host: str | None
) -> None:
    assert not await opens(running_game, player, origin, host)


async def test_behind_the_tls_proxy_the_https_origin_opens(
    running_game: Game, player: User, settings: object
) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # type: ignore[attr-defined]
    https = "https://testserver"
    assert await opens(running_game, player, https, "testserver", x_forwarded_proto="https")
    assert not await opens(running_game, player, https, "testserver")
    plain = "http://testserver"
    assert not await opens(running_game, player, plain, "testserver", x_forwarded_proto="https")


async def test_a_trusted_origin_opens(running_game: Game, player: User, settings: object) -> None:
    settings.ALLOWED_HOSTS = ["bakehouse.example"]  # type: ignore[attr-defined]
    settings.CSRF_TRUSTED_ORIGINS = ["https://bakehouse.example"]  # type: ignore[attr-defined]
    site = "bakehouse.example"
    assert await opens(running_game, player, "https://bakehouse.example", site)
    assert not await opens(running_game, player, "https://bakehouse.example:8443", site)
    assert not await opens(running_game, player, "http://bakehouse.example:443", site)


@pytest.mark.parametrize("route", [str(route.pattern) for route in websocket_urlpatterns])
async def test_every_socket_route_refuses_another_sites_socket(route: str, player: User) -> None:
    session = await database_sync_to_async(session_of)(player)
    headers = [(b"origin", b"http://evil.example"), (b"cookie", f"sessionid={session}".encode())]
    path = "/" + re.sub(r"<int:\w+>", "1", route)
    connected, _ = await Communicator(application, path, headers=headers).connect()
    assert not connected
