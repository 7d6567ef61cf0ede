"""A plain board for a game without its own table yet: the public view as text."""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat


def context(
    game: Game, view: dict[str, Any], legal: list[dict], me: Seat | None, seats: list[Seat]
) -> dict[str, Any]:
    """The view and the legal actions, untouched."""
    return {"view": view, "legal": legal}
