"""Rendering any game's table for one user, top to bottom: the board's context for the viewer
(context.py), the regions it shows, each rendered (or taken from this process's renders of the
version: renders.render_region), and which of them changed since a socket last sent them.

A move's push reads one way down: render_diff -> render_changed -> context.board_context (the
table as shared.table_at read it) -> region_inputs (changes.py) -> render_shared ->
renders.render_region -> jinja.render_plain; nothing below calls back up into this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template import engines
from django.utils.html import format_html
from django.utils.translation import get_language
from markupsafe import Markup

from accounts.models import User
from games.boards.changes import Inputs, fingerprint, inputs
from games.boards.context import board_context
from games.boards.jinja import render_plain
from games.boards.renders import render_region
from games.boards.shared import TableAt
from games.models import Game

WAITING_REGIONS = ("waiting",)
COMMON_REGIONS = ("version",)
TABLE_REGIONS = ("table",)
PLAYING_REGIONS = ("resign", "rematch")


def region_names(game: Game) -> tuple[str, ...]:
    """The independently swapped parts of this table's board."""
    if game.snapshot is None:
        return COMMON_REGIONS + WAITING_REGIONS
    return COMMON_REGIONS + TABLE_REGIONS + game.spec.regions + PLAYING_REGIONS


def region_template(game: Game, name: str) -> str:
    """The template of one board region."""
    if name in WAITING_REGIONS + COMMON_REGIONS + TABLE_REGIONS + PLAYING_REGIONS:
        return f"games/_{name}.html"
    return f"{game.spec.template_dir}/_{name}.html"


def render_parts(
    game: Game, ctx: Mapping[str, object], names: Iterable[str], request: HttpRequest | None = None
) -> dict[str, str]:
    """These regions of the board, each as the HTML that sits in the board and is swapped alone
    (with a request, as a page draws them: with its CSRF token)."""
    return {name: render_page_part(region_template(game, name), ctx, request) for name in names}


def render_page_part(template: str, ctx: Mapping[str, object], request: HttpRequest | None) -> str:
    """A board template as a page or an HTTP answer draws it (with a request: its CSRF token), or
    as a socket does (without one)."""
    if request is None:
        return render_plain(template, ctx)
    return Markup(engines["boards"].get_template(template).render(dict(ctx), request))


def board_html(game: Game, ctx: Mapping[str, object], parts: Mapping[str, str]) -> str:
    """The whole board (#board) around its rendered regions."""
    return render_plain("games/_board.html", {**ctx, "parts": list(parts.values())})


def render_board(
    game: Game,
    user: User | AnonymousUser,
    request: HttpRequest | None = None,
    table: TableAt | None = None,
) -> str:
    """The whole board (#board) for this user (`table`: as board_context)."""
    ctx = board_context(game, user, table)
    return board_html(game, ctx, render_parts(game, ctx, region_names(game), request))


def render_regions(game: Game, user: User | AnonymousUser) -> dict[str, str]:
    """Each region of the board by name, as a push swaps it in."""
    ctx = board_context(game, user)
    return render_parts(game, ctx, region_names(game))


# What a socket keeps of each region it sent: the fingerprint of the region's inputs and the hash
# of its HTML (two ints, not the HTML; None where the HTML is not known, so a move sends it).
Sent = dict[str, tuple[int, int | None]]


def region_prints(game: Game, ctx: Mapping[str, object]) -> dict[str, int]:
    """Each region's fingerprint for this viewer (what it shows, hashed; see changes.py)."""
    return {name: fingerprint(ctx, region_template(game, name)) for name in region_names(game)}


def region_inputs(game: Game, ctx: Mapping[str, object]) -> dict[str, Inputs]:
    """What each region shows this viewer: the plain values its template reads (changes.py)."""
    return {name: inputs(ctx, region_template(game, name)) for name in region_names(game)}


def render_shared(
    game: Game, ctx: Mapping[str, object], seen: Mapping[str, Inputs], names: Iterable[str]
) -> dict[str, str]:
    """These regions for one viewer; one that shows another viewer of this table the very same
    thing at this version, in the same language, was rendered once for both
    (renders.render_region)."""
    language = get_language()
    return {
        name: render_region(game, region_template(game, name), seen[name], ctx, language)
        for name in names
    }


def render_changed(
    game: Game, user: User | AnonymousUser, before: Sent, table: TableAt | None = None
) -> tuple[dict[str, str], Sent]:
    """The regions that changed since `before`, rendered, and what to keep now.

    Only a region whose inputs moved is rendered; it is sent only if its HTML differs too (an
    input can move without changing what shows).
    """
    ctx = board_context(game, user, table)
    seen = region_inputs(game, ctx)
    prints = {name: values.print for name, values in seen.items()}
    moved = [name for name, mark in prints.items() if before.get(name, (None,))[0] != mark]
    kept = {name: before[name] for name in prints if name not in moved}
    changed = {}
    for name, html in render_shared(game, ctx, seen, moved).items():
        kept[name] = (prints[name], hash(html))
        if before.get(name, (None, None))[1] != kept[name][1]:
            changed[name] = html
    return changed, kept


def render_diff(
    game: Game, user: User | AnonymousUser, before: Sent, base: int, table: TableAt | None = None
) -> tuple[str, Sent]:
    """The changed regions as one message, led by the version they lead from (`base`) and to.

    The page applies it only on top of the version it was computed from; on any other board it
    asks for the whole board instead, so a lost or reordered piece can never leave a region behind.
    """
    changed, kept = render_changed(game, user, before, table)
    if not changed:
        return "", kept
    return diff_marker(base, game.version) + "".join(changed.values()), kept


def board_message(text: str) -> str:
    """The message line above the board, as an error (a refusal, a failure), swapped by its id."""
    return format_html(
        '<p id="board-message" class="message error" role="alert" hx-swap-oob="true">{}</p>', text
    )


def diff_marker(base: int, version: int) -> str:
    """What leads a regions-only message: the version it leads from and to."""
    return format_html(
        '<template id="board-diff" data-base="{}" data-version="{}"></template>', base, version
    )


def render_whole(
    game: Game, user: User | AnonymousUser, table: TableAt | None = None
) -> tuple[str, Sent]:
    """The whole board, and what a socket keeps of each region, from one rendering."""
    ctx = board_context(game, user, table)
    seen = region_inputs(game, ctx)
    parts = render_shared(game, ctx, seen, seen)
    kept: Sent = {name: (seen[name].print, hash(html)) for name, html in parts.items()}
    return board_html(game, ctx, parts), kept
