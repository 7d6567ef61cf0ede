"""The pieces of regions this process keeps: each rendered once for every viewer and version
that passes it the very same values, in one language ({{ piece(...) }}, games/boards/jinja.py).

A piece reads nothing but the values passed to it, so its HTML is kept under those values
(their plain stand-ins, games/boards/plain.py, compared whole) and handed to every later render
that passes equal ones: a rival's box on the Midnight Bakery seats, a card on the Cakehalla
counter, a seat at the table.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from django.utils.translation import get_language

# What the pieces kept may hold, least recently used dropped first: their HTML and the values
# they were passed (a piece and its key are about 1.5 KB each; 12 MB is about the 8,192 pieces
# 100 busy tables share, which an hour's soak filled within five minutes and then held level at
# 23 MiB with Python's overhead). The count is the backstop.
PIECES_BYTES = 12_000_000
PIECES_KEEP = 8192

_lock = threading.Lock()  # the sockets' pushes run in several threads
# (piece template, the values passed) -> its HTML, least recently used first
_pieces: OrderedDict[tuple[str, str | None, Hashable], str] = OrderedDict()
_held = [0]  # the characters and bytes the kept pieces hold


def size(key: tuple[str, str | None, Hashable], html: str) -> int:
    """What one kept piece holds: its HTML and the values it was passed (bytes, plain.py)."""
    seen = key[2]
    return len(html) + (len(seen) if isinstance(seen, (bytes, str)) else 64)


# The language of the region being rendered on this thread (renders.render_region says it once a
# region, so a piece or a template's gettext need not ask Django's translation for it: a few
# microseconds a call, hundreds a push; docs/performance.md).
_speaking = threading.local()


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """The pieces rendered inside are in `language` (the one active: a region's render says it),
    and so are the boards' words (jinja.py)."""
    before = getattr(_speaking, "language", None)
    _speaking.language = language
    try:
        yield
    finally:
        _speaking.language = before


def language() -> str | None:
    """The language of the region being rendered on this thread, or None outside one."""
    return getattr(_speaking, "language", None)


# Regions and pieces rendered, and taken from another render, in this process.
render_counts: Counter[str] = Counter()


def render_piece(template: str, seen: Hashable, render: Callable[[], str]) -> str:
    """A piece of a region passed the values `seen`: rendered once per process for every viewer
    and version that passes the very same values and reads the same language (jinja.py's
    `piece`; its words are in the language active, translation.get_language)."""
    key = (template, getattr(_speaking, "language", None) or get_language(), seen)
    with _lock:
        html = _pieces.get(key)
        if html is not None:
            _pieces.move_to_end(key)
            render_counts["pieces shared"] += 1
            return html
    html = render()
    with _lock:
        render_counts["pieces rendered"] += 1
        old = _pieces.pop(key, None)
        if old is not None:
            _held[0] -= size(key, old)
        _pieces[key] = html
        _held[0] += size(key, html)
        while _pieces and (_held[0] > PIECES_BYTES or len(_pieces) > PIECES_KEEP):
            dropped, dropped_html = _pieces.popitem(last=False)
            _held[0] -= size(dropped, dropped_html)
    return html


def held() -> int:
    """What the kept pieces hold now (their HTML and keys, in characters and bytes)."""
    with _lock:
        return _held[0]


def forget_all() -> None:
    """Forget every piece (tests; a bench that measures renders with nothing kept)."""
    with _lock:
        _pieces.clear()
        _held[0] = 0
