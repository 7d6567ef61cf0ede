"""Midnight Bakery as the site offers it, one module a part: its board, its hints, its lesson,
its stats and its replay; kind.py gathers them into the game's kind, which games/catalog.py
registers."""

from games.kinds.midnight_bakery.kind import MidnightBakery

__all__ = ["MidnightBakery"]
