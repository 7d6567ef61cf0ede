"""A finished night replayed: each baker's batch at a moment, and a move in words (the choice
kept face down through a rival's eyes)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext

from games.engines import midnight_bakery as engine
from games.engines.midnight_bakery import Action, State
from games.kinds.base import Hand, ReplayedMove, SeatRow, player_name
from games.kinds.midnight_bakery.board import art


def hands(state: State, seats: Sequence[SeatRow]) -> list[Hand]:
    """Each baker's batch at this moment, from their own view (the locked pick marked)."""
    out: list[Hand] = []
    for seat in sorted(seats, key=lambda s: s.position or 0):
        own = engine.view(state, seat.position)
        cards = [{**c, "art": art(c["face"])} for c in own["batch"]]
        out.append({"player": player_name(seats, seat.position or 0), "cards": cards})
    return out


def move_words(move: ReplayedMove[State, Action]) -> tuple[str, list[str]]:
    """What the baker chose, and the public events it set off.

    Through another seat's eyes the choice itself stays face down, as it was at the table.
    """
    action = move.action
    names = {c["id"]: c["name"] for c in engine.view(move.before, move.seat)["batch"]}
    who = player_name(move.seats, move.seat)
    if move.eyes is not None and move.eyes != move.seat:
        said = gettext("%(who)s made their choice, face down.") % {"who": who}
    elif action["type"] == "peel":
        first, second = (names.get(c, c) for c in action["cards"])
        said = gettext("%(who)s used the peel: a %(first)s, then a %(second)s.") % {
            "who": who,
            "first": first,
            "second": second,
        }
    else:
        card = names.get(action["card"], action["card"])
        said = gettext("%(who)s chose a %(card)s.") % {"who": who, "card": card}
    seen = len(engine.view(move.before, None)["log"])
    events = [e["text"] for e in engine.view(move.after, None)["log"][seen:]]
    return said, events
