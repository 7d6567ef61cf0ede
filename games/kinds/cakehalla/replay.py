"""A finished Cakehalla game replayed: every reservation face up, each baker's hidden hand, and
each move in the words of the kitchen log."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext

from games.engines import cakehalla as engine
from games.engines.cakehalla import Action, View
from games.engines.cakehalla.shapes import SeatView
from games.engines.cakehalla.state import State
from games.kinds.base import Hand, ReplayedMove, SeatRow, player_name
from games.kinds.cakehalla.log import event_text
from games.kinds.cakehalla.words import player_names


def hands(state: State, seats: Sequence[SeatRow]) -> list[Hand]:
    """Each baker's reserved cards at this moment, from their own view (a seat never placed at
    the table holds none, and is left out)."""
    out: list[Hand] = []
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


def move_words(
    move: ReplayedMove[State, Action], seat_names: tuple[str, ...]
) -> tuple[str, list[str]]:
    """The move in the words of a kitchen log: the mover's own (blind cards named), or the
    watching seat's (a rival's blind card only by its tier)."""
    reader = move.seat if move.eyes is None else move.eyes
    old, new = engine.view(move.before, reader), engine.view(move.after, reader)
    names = player_names(new, move.seats, seat_names)
    lines = [event_text(e, names, new["rules"]) for e in new["log"][len(old["log"]) :]]
    if not lines:
        return gettext("%(who)s moved.") % {"who": player_name(move.seats, move.seat)}, []
    return lines[0], lines[1:]
