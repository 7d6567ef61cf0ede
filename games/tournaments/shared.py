"""What every viewer of a tournament's page shares, read and rendered once per process: the
board at a version (standings and tables: three queries), the live part of the page for each
round and standings page shown, and the chat's newest lines. The page's sockets use this (a
lock keeps it whole across their push threads), and so does a page request for the board and its
live part at the version it read (views.detail_context: the 1,000-entrant page took 17-22 ms of
CPU reading and drawing its own, 7-13 ms sharing them). What a request kept without a socket
goes with the oldest of KEEP.

Why push the rendered part rather than tell 1,000 pages to fetch it: a change then costs each
process one read and one render however many watch, and the channel layer carries only the
version (a few bytes a socket); a fetch would cost every page a request of its own (a session,
a person, the standings read and drawn: about a thousand times the work), all at one instant.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.translation import get_language

from games.tournaments import pages
from games.tournaments.chat_panel import CHAT_SHOWN, Said, recent_lines
from games.tournaments.models import Tournament

KEEP = 256
"""Boards (and chats) kept per process: a tournament's go with its last socket here."""

Key = tuple[int, int | None]
"""A tournament and the Swiss round asked for (None: the round under way)."""


@dataclass(frozen=True)
class Chat:
    """A tournament's newest chat lines as read at one moment (time.time())."""

    read_at: float
    lines: list[Said]


_lock = threading.Lock()
_reading: dict[Hashable, threading.Lock] = {}
_boards: OrderedDict[Key, pages.Board] = OrderedDict()
_renders: dict[tuple[Key, int, str], tuple[int, str]] = {}
_chats: OrderedDict[int, Chat] = OrderedDict()
_chat_renders: dict[int, tuple[float, dict[tuple[str, tuple[int, ...]], str]]] = {}
_sockets: Counter[int] = Counter()
render_counts: Counter[str] = Counter()
"""How often a live part was rendered and how often a render was shared (tests read it)."""


def reading(key: Hashable) -> threading.Lock:
    """The lock that lets one thread of this process read this key at a time."""
    with _lock:
        return _reading.setdefault(key, threading.Lock())


def board_at(tournament_id: int, asked: int | None, version: int | None) -> pages.Board | None:
    """The board at `version` or later (None: as stored now), read once for every socket of
    this process; None if the tournament is gone."""
    key = (tournament_id, asked)
    with _lock:
        known = _boards.get(key)
    if known is not None and version is not None and known.version >= version:
        return known
    with reading(key):
        with _lock:
            known = _boards.get(key)
        if known is not None and version is not None and known.version >= version:
            return known
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return None
        if known is None or known.version != tournament.version:
            known = pages.read_board(tournament, asked)
        with _lock:
            newest = _boards.get(key)
            if newest is None or newest.version <= known.version:
                _boards[key] = known
            _boards.move_to_end(key)
            while len(_boards) > KEEP:
                _boards.popitem(last=False)
            return _boards[key]


def live_html(board: pages.Board, asked: int | None, page: object) -> str:
    """The live part of the page (status, podium, standings page, tables) at the board's
    version: rendered once per process for every viewer of that round and page who reads the
    active language (a socket's person's: live.py), never handed to a reader of another."""
    standings = board.page(page)
    key = ((board.tournament.pk, asked), standings.number, get_language() or "")
    with _lock:
        known = _renders.get(key)
        if known is not None and known[0] == board.version:
            render_counts["shared"] += 1
            return known[1]
    html = render_to_string("tournaments/_live.html", pages.live_context(board, standings))
    with _lock:
        render_counts["rendered"] += 1
        known = _renders.get(key)
        if known is None or known[0] <= board.version:
            _renders[key] = (board.version, html)
    return html


def chat_at(tournament_id: int, stamp: float | None) -> Chat:
    """The newest lines, read again unless read after `stamp` (None: read now)."""
    with _lock:
        known = _chats.get(tournament_id)
    if known is not None and stamp is not None and known.read_at >= stamp:
        return known
    with reading(("chat", tournament_id)):
        with _lock:
            known = _chats.get(tournament_id)
        if known is not None and stamp is not None and known.read_at >= stamp:
            return known
        read_at = time.time()
        known = Chat(read_at, recent_lines(tournament_id, limit=2 * CHAT_SHOWN))
        with _lock:
            _chats[tournament_id] = known
            _chats.move_to_end(tournament_id)
            while len(_chats) > KEEP:
                gone, _ = _chats.popitem(last=False)
                _chat_renders.pop(gone, None)
        return known


def chat_html(tournament_id: int, chat: Chat, hidden: frozenset[int]) -> str:
    """The chat lines for a viewer who does not see `hidden` people's: one render per process
    for every viewer who sees the same lines in the same (active) language."""
    lines = [line for line in chat.lines if line.author_id not in hidden][-CHAT_SHOWN:]
    key = (get_language() or "", tuple(line.pk for line in lines))
    with _lock:
        known = _chat_renders.get(tournament_id)
        if known is not None and known[0] == chat.read_at and key in known[1]:
            return known[1][key]
    html = render_to_string("tournaments/_chat_log.html", {"lines": lines})
    with _lock:
        known = _chat_renders.get(tournament_id)
        if known is None or known[0] < chat.read_at:
            known = _chat_renders[tournament_id] = (chat.read_at, {})
        if known[0] == chat.read_at:
            known[1][key] = html
    return html


def socket_opened(tournament_id: int) -> None:
    """A page socket of this process opened: what is kept of the tournament serves one more."""
    with _lock:
        _sockets[tournament_id] += 1


def socket_closed(tournament_id: int) -> None:
    """A page socket closed; the tournament's last here takes what was kept of it along."""
    with _lock:
        _sockets[tournament_id] -= 1
        if _sockets[tournament_id] > 0:
            return
        del _sockets[tournament_id]
        forget(tournament_id)


def forget(tournament_id: int) -> None:
    """Drop what is kept of one tournament (the lock held)."""
    for board in [k for k in _boards if k[0] == tournament_id]:
        del _boards[board]
    for render in [k for k in _renders if k[0][0] == tournament_id]:
        del _renders[render]
    _chats.pop(tournament_id, None)
    _chat_renders.pop(tournament_id, None)
    _reading.pop(("chat", tournament_id), None)
    for lock in [k for k in _reading if isinstance(k, tuple) and k[0] == tournament_id]:
        del _reading[lock]


def forget_all() -> None:
    """Forget every board and render (tests: a new database reuses the same ids)."""
    with _lock:
        _boards.clear()
        _renders.clear()
        _chats.clear()
        _chat_renders.clear()
        _sockets.clear()
        _reading.clear()
        render_counts.clear()
