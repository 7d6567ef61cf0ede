"""A finished Cakehalla game replayed: every reservation face up, and each baker's hidden hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engines import cakehalla as engine
from games.engines.cakehalla import View
from games.engines.cakehalla.shapes import SeatView
from games.engines.cakehalla.state import State
from games.kinds.base import SeatRow, player_name


def hands(state: State, seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
    """Each baker's reserved cards at this moment, from their own view (a seat never placed at
    the table holds none, and is left out)."""
    out = []
    placed = sorted((s.position, s) for s in seats if s.position is not None)
    for position, _ in placed:
        reserved = engine.view(state, position)["seats"][position]["reserved"]
        out.append({"player": player_name(seats, position), "cards": reserved})
    return out


def revealed(state: State) -> View:
    """The spectator view with each baker's reserved cards as their owner saw them."""
    view = engine.view(state, None)
    boxes: list[SeatView] = [
        {**box, "reserved": engine.view(state, i)["seats"][i]["reserved"]}
        for i, box in enumerate(view["seats"])
    ]
    return {**view, "seats": boxes}
