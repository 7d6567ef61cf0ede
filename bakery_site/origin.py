"""The websocket Origin check: only this site's own pages may open its sockets."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

from games.outages import ASGIApp, Receive, Send

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]
Scope = dict[str, object]  # an ASGI scope


def parse_origin(raw: str) -> Origin | None:
    """The scheme, host and port (the scheme's default if none) of an http(s) origin."""
    try:
        parts = urlsplit(raw.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def header_map(scope: Scope) -> dict[bytes, str]:
    """The handshake's headers by lowercase name (the last of repeats)."""
    headers = cast(Iterable[tuple[bytes, bytes]], scope.get("headers", []))
    return {name.lower(): value.decode("latin1") for name, value in headers}


def is_secure(scope: Scope, headers: dict[bytes, str]) -> bool:
    """Whether the browser opened the socket over TLS, as Django's request.is_secure() decides."""
    if scope.get("scheme") in {"wss", "https"}:
        return True
    proxy: tuple[str, str] | None = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    meta_name, secure_value = proxy
    name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
    return headers.get(name, "").split(",", 1)[0].strip() == secure_value


def trusted(origin: Origin) -> bool:
    """Whether CSRF_TRUSTED_ORIGINS lists the origin (`https://*.example.com` for subdomains)."""
    for pattern in settings.CSRF_TRUSTED_ORIGINS:
        allowed = parse_origin(pattern)
        if allowed is None or allowed[::2] != origin[::2]:
            continue
        host = allowed[1]
        if origin[1] == host or (host.startswith("*.") and is_same_domain(origin[1], host[1:])):
            return True
    return False


def own_origin(scheme: str, host: str) -> Origin | None:
    """The site's origin as the Host header names it, if that host is allowed."""
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return parse_origin(f"{scheme}://{host}")


def allowed_origin(scope: Scope) -> bool:
    """Whether the socket's Origin is this site (scheme, host and port) or a trusted origin."""
    headers = header_map(scope)
    origin = parse_origin(headers.get(b"origin", ""))
    if origin is None:
        return False
    if trusted(origin):
        return True
    scheme = "https" if is_secure(scope, headers) else "http"
    host = headers.get(b"host")
    if host is None:
        # Browsers always send Host; a client without one gets the allowed host names only.
        name = f"[{origin[1]}]" if ":" in origin[1] else origin[1]
        return origin[0] == scheme and validate_host(name, settings.ALLOWED_HOSTS)
    return origin == own_origin(scheme, host)


class SiteOriginValidator:
    """Refuse a websocket whose Origin is not this site's own (scheme, host and port)."""

    def __init__(self, application: ASGIApp) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not allowed_origin(scope):
            await WebsocketDenier()(scope, receive, send)
            return
        await self.application(scope, receive, send)
