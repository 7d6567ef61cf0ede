"""What a table's socket and its page say to each other: the codes a socket closes with, the
messages a page may send (a resync request, or one of its forms), and the small templates a
socket sends beside a board (the version its own move made, a page sent elsewhere)."""

from __future__ import annotations

import json
from typing import TypedDict, cast

from django.urls import Resolver404, resolve
from django.utils.html import format_html

SERVICE_RESTART = 3012  # 1012 (service restart) in the 3xxx range, as Daphne sends only 1000 or
# 3000-4999: this process is stopping (games/live/drain.py); the page comes back at once
LAYER_LOST = SERVICE_RESTART  # the channel layer went away: the page comes back alike and resyncs
DATABASE_AWAY = 3013  # the handshake met the database away: the page reconnects (not for good)
NOT_ALLOWED = 4403
NOT_FOUND = 4404
TABS_AT_TABLE = 4408  # this session (or address) holds its cap of sockets at this page (caps.py)
TABS_IN_ALL = 4409  # this session (or address) holds its cap of sockets in all (caps.py)
TOO_MANY = 4429
MAX_MESSAGE = 4096  # a move's fields (its action at most games.services.moves.MAX_ACTION_CHARS) fit
MAX_FIELDS = 8
SENT_FORMS = ("play", "close_results")  # the board's forms live.js sends on the socket


class PageMessage(TypedDict, total=False):
    """A page's message: a resync request (`version`), or one of its forms (`fields`)."""

    type: str
    version: int
    fields: dict[str, str]


def page_message(text: str | None) -> PageMessage | None:
    """A well-formed message from the table's page, else None: a resync request (the version it
    shows), or a move or the closing of results (the fields its board form would post, as
    strings)."""
    if text is None or len(text.encode()) > MAX_MESSAGE:
        return None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict):
        return None
    if message.get("type") == "resync":
        version = message.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            return None
        return cast(PageMessage, message)
    if message.get("type") in SENT_FORMS:
        fields = message.get("fields")
        if not isinstance(fields, dict) or len(fields) > MAX_FIELDS:
            return None
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
            return None
        return cast(PageMessage, message)
    return None


def is_move(text: str | None) -> bool:
    """Whether a page's message is one of its forms (a move), not a resync request."""
    message = page_message(text)
    return message is not None and message["type"] in SENT_FORMS


def go_html(url: object) -> str:
    """What sends a page to another of the site's paths (a table quick pairing seated its person
    at): live.js follows it. Empty for anything but a path of this site."""
    if not isinstance(url, str) or not url.startswith("/") or url.startswith("//"):
        return ""
    return format_html('<template id="page-go" data-url="{}"></template>', url)


def table_of(url: object) -> int | None:
    """The game whose table page is at this path of the site (None for any other path)."""
    if not isinstance(url, str):
        return None
    try:
        match = resolve(url)
    except Resolver404:
        return None
    game_id = match.kwargs.get("game_id")
    return game_id if match.view_name == "games:table" and isinstance(game_id, int) else None


def move_made(version: int) -> str:
    """What leads this socket's answer to its own move: the version the move made."""
    return format_html('<template id="move-made" data-version="{}"></template>', version)
