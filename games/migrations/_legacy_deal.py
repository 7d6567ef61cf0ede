"""Frozen: how every game was dealt from its seed before setups were stored (rules version 1).

Used only by the migration that backfilled `Game.setup`. Never edit it, never import the
engines from it: it must deal tomorrow exactly what the engines dealt on the day setups began
to be stored (the same SplitMix64 stream, decks and card ids, and Cakehalla's seat-order
shuffle that came first and was dropped afterwards).
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _next_u64(state: int) -> tuple[int, int]:
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def _randbelow(n: int, state: int) -> tuple[int, int]:
    limit = _MASK - (_MASK + 1) % n
    while True:
        draw, state = _next_u64(state)
        if draw <= limit:
            return draw % n, state


def _shuffled(items: list[Any], state: int) -> tuple[list[Any], int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = _randbelow(i + 1, state)
        out[i], out[j] = out[j], out[i]
    return out, state


# --- Midnight Bakery ---------------------------------------------------------------------

MB_BASE = (
    ("croissant", 14),
    ("macaron", 14),
    ("bun", 14),
    ("baguette-1", 6),
    ("baguette-2", 11),
    ("baguette-3", 7),
    ("jam", 5),
    ("fruit", 10),
    ("chocolate", 5),
    ("truffle", 10),
    ("glaze", 6),
    ("peel", 4),
)
MB_EXTRA = (
    ("croissant", 2),
    ("macaron", 2),
    ("bun", 2),
    ("baguette-1", 1),
    ("baguette-2", 1),
    ("baguette-3", 1),
    ("jam", 1),
    ("fruit", 1),
    ("chocolate", 1),
    ("truffle", 2),
    ("glaze", 1),
    ("peel", 1),
)
MB_EXTRAS_FROM = 6


def midnight_bakery(players: int, seed: int) -> dict[str, Any]:
    """The deck as card ids, top first, and the owl's stream after the shuffle."""
    faces = [face for face, count in MB_BASE for _ in range(count)]
    if players >= MB_EXTRAS_FROM:
        faces += [face for face, count in MB_EXTRA for _ in range(count)]
    seen: dict[str, int] = {}
    ids = []
    for face in faces:
        seen[face] = seen.get(face, 0) + 1
        ids.append(f"{face}-{seen[face]:02d}")
    deck, stream = _shuffled(ids, seed & _MASK)
    return {"deck": deck, "rng": stream}


# --- Cakehalla ---------------------------------------------------------------------------

CK_TIERS: dict[int, tuple[str, ...]] = {
    1: (
        "1-sugar-1",
        "1-sugar-2",
        "1-sugar-3",
        "1-sugar-4",
        "1-sugar-5",
        "1-sugar-6",
        "1-sugar-7",
        "1-sugar-8",
        "1-blueberry-1",
        "1-blueberry-2",
        "1-blueberry-3",
        "1-blueberry-4",
        "1-blueberry-5",
        "1-blueberry-6",
        "1-blueberry-7",
        "1-blueberry-8",
        "1-matcha-1",
        "1-matcha-2",
        "1-matcha-3",
        "1-matcha-4",
        "1-matcha-5",
        "1-matcha-6",
        "1-matcha-7",
        "1-matcha-8",
        "1-cherry-1",
        "1-cherry-2",
        "1-cherry-3",
        "1-cherry-4",
        "1-cherry-5",
        "1-cherry-6",
        "1-cherry-7",
        "1-cherry-8",
        "1-cocoa-1",
        "1-cocoa-2",
        "1-cocoa-3",
        "1-cocoa-4",
        "1-cocoa-5",
        "1-cocoa-6",
        "1-cocoa-7",
        "1-cocoa-8",
    ),
    2: (
        "2-sugar-1",
        "2-sugar-2",
        "2-sugar-3",
        "2-sugar-4",
        "2-sugar-5",
        "2-sugar-6",
        "2-blueberry-1",
        "2-blueberry-2",
        "2-blueberry-3",
        "2-blueberry-4",
        "2-blueberry-5",
        "2-blueberry-6",
        "2-matcha-1",
        "2-matcha-2",
        "2-matcha-3",
        "2-matcha-4",
        "2-matcha-5",
        "2-matcha-6",
        "2-cherry-1",
        "2-cherry-2",
        "2-cherry-3",
        "2-cherry-4",
        "2-cherry-5",
        "2-cherry-6",
        "2-cocoa-1",
        "2-cocoa-2",
        "2-cocoa-3",
        "2-cocoa-4",
        "2-cocoa-5",
        "2-cocoa-6",
    ),
    3: (
        "3-sugar-1",
        "3-sugar-2",
        "3-sugar-3",
        "3-sugar-4",
        "3-blueberry-1",
        "3-blueberry-2",
        "3-blueberry-3",
        "3-blueberry-4",
        "3-matcha-1",
        "3-matcha-2",
        "3-matcha-3",
        "3-matcha-4",
        "3-cherry-1",
        "3-cherry-2",
        "3-cherry-3",
        "3-cherry-4",
        "3-cocoa-1",
        "3-cocoa-2",
        "3-cocoa-3",
        "3-cocoa-4",
    ),
}
CK_CUSTOMERS = (
    "pair-0",
    "pair-1",
    "pair-2",
    "pair-3",
    "pair-4",
    "trio-0",
    "trio-1",
    "trio-2",
    "trio-3",
    "trio-4",
)


def cakehalla(players: int, seed: int) -> dict[str, Any]:
    """Every pile whole, top first, and the face-up customers, after the seat-order shuffle."""
    _, stream = _shuffled(list(range(players)), seed & _MASK)
    piles = {}
    for tier, ids in CK_TIERS.items():
        pile, stream = _shuffled(list(ids), stream)
        piles[str(tier)] = pile
    drawn, stream = _shuffled(list(range(len(CK_CUSTOMERS))), stream)
    return {"piles": piles, "customers": [CK_CUSTOMERS[i] for i in drawn[: players + 1]]}


DEALS = {"midnight-bakery": midnight_bakery, "cakehalla": cakehalla}


def legacy_setup(kind: str, players: int, seed: int) -> dict[str, Any] | None:
    """The setup a game of this kind was dealt from its seed; None for a kind unknown here."""
    deal = DEALS.get(kind)
    return None if deal is None else deal(players, seed)
