"""The games Bakehouse offers: one registry line per game (its kind, in games/kinds/)."""

from __future__ import annotations

from games.kinds.base import AnyKind
from games.kinds.cakehalla import Cakehalla
from games.kinds.midnight_bakery import MidnightBakery

_KINDS: dict[str, AnyKind] = {}


def register(kind: AnyKind) -> AnyKind:
    """Offer a game; its slug must be new."""
    if kind.slug in _KINDS:
        raise ValueError(f"A game is already registered as {kind.slug!r}.")
    _KINDS[kind.slug] = kind
    return kind


def unregister(slug: str) -> None:
    """Take a game off the offer (a test's throwaway game, once the test ends)."""
    del _KINDS[slug]


def get(slug: str) -> AnyKind:
    """The kind of a game by its slug; KeyError if unknown."""
    return _KINDS[slug]


def available() -> list[AnyKind]:
    """Every game on offer, in the order registered."""
    return list(_KINDS.values())


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for forms and admin filters."""
    return [(kind.slug, kind.name) for kind in _KINDS.values()]


register(MidnightBakery())
register(Cakehalla())
