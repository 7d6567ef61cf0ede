"""A table's regions as rendered at its version, kept once per process for every viewer.

A region is rendered once per version and language for every viewer to whom it shows the same
thing (spectators, a person's several tabs, the public regions of a board), keyed by the language
its words are in and the exact plain values its template reads for that viewer (changes.inputs),
compared whole, not by a hash, so two viewers whose views of it differ in anything (their
language too) never get one render. A region whose template says no words at all (wordless:
the version's) is rendered once per version for every language. A table's renders are
forgotten with the table (shared.socket_closed); RENDERS_KEEP is the backstop.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from functools import cache

from django.utils.translation import get_language
from jinja2 import nodes

from games.boards import pieces
from games.boards.jinja import board_environment, render_plain
from games.boards.pieces import render_counts as render_counts  # counted here for its readers
from games.models import Game

RENDERS_KEEP = 256  # tables whose newest version's region renders are kept (tens of KiB each)

_lock = threading.Lock()  # the sockets' pushes run in several threads
# game id -> (version, {(region template, language, what it reads for the viewer): its HTML})
_renders: OrderedDict[int, tuple[int, dict[tuple[str, str | None, Hashable], str]]] = OrderedDict()


def render_region(
    game: Game,
    template: str,
    seen: Hashable,
    context: Mapping[str, object],
    language: str | None = None,
) -> str:
    """A region of this game at its version, for a viewer to whom it shows `seen` (the plain
    values its template reads in `context`): rendered once per process for all such viewers who
    read the same language (`language`, the one active: a socket's person's,
    games/live/push_threads.py; asked of Django if not given)."""
    language = language or get_language()
    key = (template, None if wordless(template) else language, seen)
    with _lock:
        known = _renders.get(game.pk)
        if known is not None and known[0] == game.version and key in known[1]:
            render_counts["shared"] += 1
            return known[1][key]
    with pieces.speaking(language):
        html = render_plain(template, context)
    with _lock:
        render_counts["rendered"] += 1
        known = _renders.get(game.pk)
        if known is None or known[0] < game.version:
            known = _renders[game.pk] = (game.version, {})
        if known[0] == game.version:
            known[1][key] = html
        _renders.move_to_end(game.pk)
        while len(_renders) > RENDERS_KEEP:
            _renders.popitem(last=False)
    return html


# What a template may hold and still say the same in every language: no call (a word's, a
# piece's, a macro's, a URL's), no filter but these (a number's or a date's may be written per
# language), no include or import of another template, no block of an extension.
WORDLESS_FILTERS = frozenset({"e", "escape", "length"})
SPEAKING = (
    nodes.Call,
    nodes.Include,
    nodes.Import,
    nodes.FromImport,
    nodes.Extends,
    nodes.ExtensionAttribute,
)


@cache
def wordless(template: str) -> bool:
    """Whether a region's template says no words of any language (its own text aside, which is
    the same in all): read from its syntax tree once per process, erring towards no."""
    env = board_environment()
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, template)
    for node in env.parse(source).find_all(nodes.Node):
        if isinstance(node, SPEAKING):
            return False
        if isinstance(node, nodes.Filter | nodes.Test) and node.name not in WORDLESS_FILTERS:
            return False
    return True


def forget(game_id: int) -> None:
    """Forget this table's renders (its last socket here closed, or none served it)."""
    with _lock:
        _renders.pop(game_id, None)


def forget_all() -> None:
    """Forget every render, the pieces' too (tests: a new database reuses the same game ids)."""
    with _lock:
        _renders.clear()
    pieces.forget_all()
