"""Seeded randomness kept in a game's own state as one integer (SplitMix64)."""

from collections.abc import Sequence
from typing import TypeVar

from games.engines.errors import refused

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The stream's starting state for a game seed (any int, negative included)."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """One 64-bit draw and the stream's next state."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def randbelow(n: int, state: int) -> tuple[int, int]:
    """A uniform int in [0, n) and the next state (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _MASK - (_MASK + 1) % n
    while True:
        draw, state = next_u64(state)
        if draw <= limit:
            return draw % n, state


def shuffled(items: Sequence[T], state: int) -> tuple[list[T], int]:
    """A Fisher-Yates shuffle of a copy of items, and the next state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = randbelow(i + 1, state)
        out[i], out[j] = out[j], out[i]
    return out, state


def checked_seed(seed: object) -> int:
    """The seed if it is a whole number (a bool is not); IllegalAction otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise refused("seed-not-whole", type=type(seed).__name__)
    return seed


def checked_stream(value: object) -> int:
    """A stream state given by a setup: a whole number from 0 to 2**64 - 1."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MASK:
        raise refused("stream-out-of-range")
    return value
