"""The language a page's socket speaks: its person's, read once at the handshake."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accounts.languages import language_of_socket


def scope_language(scope: Mapping[str, Any]) -> str:
    """The language of the person whose page opened this socket, as their pages read it
    (accounts.languages.language_of_socket: saved choice, the cookie, Accept-Language)."""
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    return language_of_socket(scope.get("user"), scope.get("cookies") or {}, accept)
