"""Cakehalla's names in words and the small pieces every part of its table writes alike:
an ingredient's label, shape and drawing, an action as the JSON a button posts, lists in words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache

from django.utils.translation import get_language, gettext, gettext_noop

from games.engines.cakehalla import View
from games.kinds.base import SeatRow

SHAPES: dict[str, str] = {
    "sugar": gettext_noop("white cube"),
    "blueberry": gettext_noop("blue circle"),
    "matcha": gettext_noop("green leaf"),
    "cherry": gettext_noop("red heart"),
    "cocoa": gettext_noop("brown bean"),
    "saffron": gettext_noop("gold star"),
}
"""Each token's drawing in words, for whoever cannot tell its colour (the reader's language)."""


def shape(name: str) -> str:
    """An ingredient token's shape in words, in the language active."""
    return shapes_in(get_language())[name]


@lru_cache(maxsize=16)
def shapes_in(language: str | None) -> Mapping[str, str]:
    """Every token's shape in words in this language (the language active when it is first
    asked): a board draws about thirty tokens for each viewer, so a render asks the language
    once and reads its shapes from this table."""
    return {name: gettext(words) for name, words in SHAPES.items()}


def token_art(name: str) -> str:
    """The static path of an ingredient token's drawing."""
    return f"cakehalla/tokens/{name}.svg"


def label(name: str) -> str:
    """An ingredient's name as players read it: the game's own name, alike in every language."""
    return name.capitalize()


def action_json(action: Mapping[str, object]) -> str:
    """An action as the JSON a button posts."""
    return json.dumps(action, separators=(",", ":"))


@lru_cache(maxsize=4096, typed=True)
def offer_json(kind: str, key: str, value: int | str) -> str:
    """The JSON of a one-field action ({"type": kind, key: value}), written once per process:
    the counter offers about thirty of them to every viewer on every push."""
    return action_json({"type": kind, key: value})


def and_list(parts: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c', in the language active."""
    if len(parts) < 2:
        return "".join(parts)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(parts[:-1]), "last": parts[-1]}


def count_list(amounts: Mapping[str, int]) -> str:
    """'2 Sugar, 1 Cocoa' for a count per ingredient."""
    return ", ".join(f"{n} {label(name)}" for name, n in amounts.items() if n)


def tokens(view: View) -> list[str]:
    """Every ingredient token in the market's order, the wild one last."""
    rules = view["rules"]
    return [*rules["ingredients"], rules["wild"]]


def player_names(view: View, seats: Sequence[SeatRow], seat_names: tuple[str, ...]) -> list[str]:
    """The display name of each seat position: the seat's name and who sits there."""
    by_position = {s.position: s.user.username for s in seats if s.position is not None}
    return [
        f"{seat_names[i]} ({by_position[i]})" if i in by_position else seat_names[i]
        for i in range(len(view["seats"]))
    ]
