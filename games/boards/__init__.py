"""Rendering a table for one user: only engine.view() of their own seat reaches a template."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from games.models import Game, Seat

WAITING_REGIONS = ("waiting",)
COMMON_REGIONS = ("version",)
PLAYING_REGIONS = ("resign",)


def board_module(game: Game) -> ModuleType:
    """The module that turns this game's view into template context."""
    return importlib.import_module(game.spec.board_module or "games.boards.generic")


def seat_results(game: Game, result: Mapping[str, Any], position: int) -> dict[str, Any]:
    """What a seat keeps of the final result (its own slice of each per-seat list)."""
    module = board_module(game)
    if hasattr(module, "seat_results"):
        return dict(module.seat_results(result, position))
    count = len(result["scores"])
    return {
        key: value[position]
        for key, value in result.items()
        if isinstance(value, list) and len(value) == count and key not in {"scores", "winners"}
    }


def results_count(game: Game, view: Mapping[str, Any]) -> int:
    """How many rounds of results this seat's view has shown so far (0 for games without)."""
    module = board_module(game)
    return int(module.results_count(view)) if hasattr(module, "results_count") else 0


def option_labels(game: Game) -> list[str]:
    """The table's chosen options in words ("Passing: Alternate")."""
    out = []
    for option in game.spec.options:
        value = game.options.get(option.name, option.default)
        out.append(f"{option.label}: {dict(option.choices).get(value, value)}")
    return out


def board_context(game: Game, user: Any) -> dict[str, Any]:
    """Everything a board template needs for this user, built from their seat's view only."""
    seats: list[Seat] = list(game.seats.select_related("user"))
    me = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    ctx: dict[str, Any] = {
        "game": game,
        "spec": game.spec,
        "seats": seats,
        "me": me,
        "is_host": user is not None and user.pk == game.host_id,
        "version": game.version,
        "empty_seats": range(max(0, game.capacity - len(seats))),
        "user": user,
        "option_labels": option_labels(game),
        "resigned_positions": {s.position for s in seats if s.resigned},
        "your_move": False,
    }
    if game.status == Game.Status.OPEN or game.snapshot is None:
        return ctx
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    position = me.position if me is not None else None
    view = engine.view(state, position)
    playing = position is not None and me is not None and not me.resigned
    legal = engine.legal_actions(state, position) if playing else []
    ctx["your_move"] = bool(legal) and game.status == Game.Status.RUNNING
    if game.spec.moment is not None:
        ctx["moment"] = game.spec.moment(view)
    ctx.update(board_module(game).context(game, view, legal, me, seats))
    return ctx


def region_names(game: Game) -> tuple[str, ...]:
    """The independently swapped parts of this table's board."""
    if game.snapshot is None:
        return COMMON_REGIONS + WAITING_REGIONS
    return COMMON_REGIONS + game.spec.regions + PLAYING_REGIONS


def region_template(game: Game, name: str) -> str:
    """The template of one board region."""
    if name in WAITING_REGIONS or name in COMMON_REGIONS or name in PLAYING_REGIONS:
        return f"games/_{name}.html"
    return f"{game.spec.template_dir}/_{name}.html"


def render_board(game: Game, user: Any, request: HttpRequest | None = None) -> str:
    """The whole board (#board) for this user."""
    ctx = board_context(game, user)
    ctx["regions"] = [region_template(game, name) for name in region_names(game)]
    return render_to_string("games/_board.html", ctx, request)


def render_regions(game: Game, user: Any, ctx: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Each region of the board as out-of-band swap HTML, by name."""
    ctx = {**(ctx or board_context(game, user)), "oob": True}
    return {name: render_to_string(region_template(game, name), ctx) for name in region_names(game)}


def render_board_oob(game: Game, user: Any, ctx: Mapping[str, Any] | None = None) -> str:
    """The whole board as one out-of-band swap (after a change of phase, or on connect)."""
    ctx = {**(ctx or board_context(game, user)), "board_oob": True}
    ctx["regions"] = [region_template(game, name) for name in region_names(game)]
    return render_to_string("games/_board.html", ctx)


def render_whole(game: Game, user: Any) -> tuple[str, dict[str, str]]:
    """The whole board and each region from one context: what a socket sends and keeps."""
    ctx = board_context(game, user)
    return render_board_oob(game, user, ctx), render_regions(game, user, ctx)
