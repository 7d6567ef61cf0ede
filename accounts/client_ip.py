"""The client's address for django-axes, behind the README's TLS proxy or without one."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The address the outermost of PROXY_COUNT proxies saw; the peer's without proxies.

    Each proxy writes the address it saw to X-Forwarded-For, so the entries a client may forge
    are all to the left of the last PROXY_COUNT.
    """
    hops: int = settings.PROXY_COUNT
    forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    chain = [address.strip() for address in forwarded.split(",") if address.strip()]
    if hops and len(chain) >= hops:
        return chain[-hops]
    peer = request.META.get("REMOTE_ADDR")
    return peer if isinstance(peer, str) else None


def socket_ip(headers: list[tuple[bytes, bytes]], peer: str | None) -> str | None:
    """A socket's client address (its ASGI scope's headers and peer), as client_ip finds it."""
    forwarded = b",".join(v for k, v in headers if k.lower() == b"x-forwarded-for")
    chain = [a.strip() for a in forwarded.decode("latin-1").split(",") if a.strip()]
    hops: int = settings.PROXY_COUNT
    if hops and len(chain) >= hops:
        return chain[-hops]
    return peer
