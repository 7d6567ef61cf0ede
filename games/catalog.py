"""The games Bakehouse offers: each slug mapped to its engine, bots, names and lobby options."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

BotChoose = Callable[..., dict]


@dataclass(frozen=True)
class Option:
    """One lobby option of a game: a name, a label and its choices (value, label)."""

    name: str
    label: str
    choices: tuple[tuple[str, str], ...]
    default: str


@dataclass(frozen=True)
class GameSpec:
    """What the site needs to know about one game; the engine is loaded on first use."""

    slug: str
    name: str
    engine_path: str
    seat_names: tuple[str, ...]
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    board_module: str = ""
    bot_levels: tuple[str, ...] = ("random", "greedy")
    regions: tuple[str, ...] = ("status", "results", "seats", "mine", "log")
    blurb: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    # A seat's moment, read from its own view: a move chosen at the same moment is still a
    # fair choice even if the table's version moved (a rival locked a pick meanwhile).
    moment: Callable[[Mapping[str, Any]], str] | None = None
    # Moves stay secret until revealed (simultaneous picks): staff pages hide a running log.
    secret_moves: bool = False

    @property
    def engine(self) -> ModuleType:
        """The engine package (imported lazily)."""
        return _import(self.engine_path)

    @property
    def bots(self) -> Mapping[str, BotChoose]:
        """The engine's bots, by level."""
        return _import(self.engine_path + ".bots").BOTS

    @property
    def template_dir(self) -> str:
        """The folder of this game's board templates."""
        return f"games/{self.slug}"

    def default_options(self) -> dict[str, str]:
        """The options a game gets when none are chosen."""
        return {o.name: o.default for o in self.options}


@cache
def _import(path: str) -> ModuleType:
    return importlib.import_module(path)


def bake_and_pick(view: Mapping[str, Any]) -> str:
    """Midnight Bakery's moment: a batch changes only when the pick or the bake moves on."""
    return f"{view['bake']}.{view['pick']}"


MIDNIGHT_BAKERY = GameSpec(
    slug="midnight-bakery",
    name="Midnight Bakery",
    engine_path="games.engines.midnight_bakery",
    seat_names=("Flour", "Sugar", "Butter", "Cream", "Spice", "Cocoa", "Honey", "Moon"),
    min_players=2,
    max_players=8,
    options=(
        Option(
            name="passing",
            label="Passing",
            choices=(("alternate", "Alternate"), ("next", "Next")),
            default="alternate",
        ),
    ),
    board_module="games.boards.midnight_bakery",
    moment=bake_and_pick,
    secret_moves=True,
    blurb="Three bakes before dawn: keep one pastry, pass the rest.",
)

CAKEHALLA = GameSpec(
    slug="cakehalla",
    name="Cakehalla",
    engine_path="games.engines.cakehalla",
    seat_names=("Rye", "Spelt", "Oat", "Barley"),
    min_players=2,
    max_players=4,
    board_module="games.boards.cakehalla",
    bot_levels=("random", "greedy", "lookahead"),
    regions=(
        "status",
        "results",
        "info",
        "customers",
        "bakers",
        "counter",
        "market",
        "mine",
        "dialog",
    ),
    blurb="Take ingredients, bake cards, win customers: race to 15.",
    extra={"css": "cakehalla/cakehalla.css", "js": "cakehalla/board.js"},
)

_ALL: dict[str, GameSpec] = {s.slug: s for s in (MIDNIGHT_BAKERY, CAKEHALLA)}
_PLAYABLE = {"midnight-bakery", "cakehalla"}


def get(slug: str) -> GameSpec:
    """The spec of a game by its slug; KeyError if unknown."""
    return _ALL[slug]


def available() -> list[GameSpec]:
    """Games whose engine imports and whose table the site can show."""
    out = []
    for spec in _ALL.values():
        if spec.slug not in _PLAYABLE:
            continue
        try:
            spec.engine  # noqa: B018
        except ImportError:
            continue
        out.append(spec)
    return out


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for forms and admin filters."""
    return [(s.slug, s.name) for s in _ALL.values()]


def register(spec: GameSpec, *, playable: bool = True) -> None:
    """Add a game to the catalog (tests register a tiny one)."""
    _ALL[spec.slug] = spec
    if playable:
        _PLAYABLE.add(spec.slug)
