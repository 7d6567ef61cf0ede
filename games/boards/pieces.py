"""The pieces of regions this process keeps: each rendered once for every viewer and version
that passes it the very same values ({{ piece(...) }}, games/boards/jinja.py).

A piece reads nothing but the values passed to it, so its HTML is kept under those values
(their plain stand-ins, games/boards/plain.py, compared whole) and handed to every later render
that passes equal ones: a rival's box on the Midnight Bakery seats, a card on the Cakehalla
counter, a seat at the table.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable

PIECES_KEEP = 8192  # pieces kept (a few hundred bytes each), least recently used dropped first

_lock = threading.Lock()  # the sockets' pushes run in several threads
# (piece template, the values passed) -> its HTML, least recently used first
_pieces: OrderedDict[tuple[str, Hashable], str] = OrderedDict()
# Regions and pieces rendered, and taken from another render, in this process.
render_counts: Counter[str] = Counter()


def render_piece(template: str, seen: Hashable, render: Callable[[], str]) -> str:
    """A piece of a region passed the values `seen`: rendered once per process for every viewer
    and version that passes the very same values (jinja.py's `piece`)."""
    key = (template, seen)
    with _lock:
        html = _pieces.get(key)
        if html is not None:
            _pieces.move_to_end(key)
            render_counts["pieces shared"] += 1
            return html
    html = render()
    with _lock:
        render_counts["pieces rendered"] += 1
        _pieces[key] = html
        while len(_pieces) > PIECES_KEEP:
            _pieces.popitem(last=False)
    return html


def forget_all() -> None:
    """Forget every piece (tests; a bench that measures renders with nothing kept)."""
    with _lock:
        _pieces.clear()
