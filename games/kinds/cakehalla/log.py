"""Cakehalla's kitchen log in words: each line, and each baker's latest turn in it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict, cast

from games.engines.cakehalla.shapes import LogLine, Rules
from games.kinds.cakehalla.words import count_list, label


class Turn(TypedDict):
    """A seat's latest turn in a viewer's log: its events, and whether it came since the
    viewer's own last turn."""

    events: list[LogLine]
    just: bool


def event_text(event: Mapping[str, object], names: list[str], rules: Rules) -> str:
    """One kitchen log line in words."""
    kind = event["type"]
    who = names[cast(int, event["seat"])] if "seat" in event else ""
    if kind == "take":
        return f"{who} took {', '.join(label(n) for n in cast(list[str], event['ingredients']))}."
    if kind == "reserve" and event.get("blind"):
        known = f" (the {event['name']})" if "name" in event else ""
        return f"{who} reserved the top of the tier {event['tier']} pile face down{known}."
    if kind == "reserve":
        return f"{who} reserved the {event['name']}."
    if kind == "buy":
        paid = count_list(cast(Mapping[str, int], event["paid"])) or "nothing"
        return f"{who} bought the {event['name']}, paying {paid}."
    if kind == "return":
        return f"{who} put back {count_list(cast(Mapping[str, int], event['ingredients']))}."
    if kind == "customer":
        return f"{event['name']} visited {who}: {rules['customer_points']} points."
    if kind == "final":
        return f"{who} reached {rules['winning_points']} points: this is the last round."
    if kind == "pass":
        return f"{who} could do nothing and passed."
    if kind == "over":
        return "The game is over."
    return f"{who} {kind}."


def last_turns(log: Sequence[LogLine], mine: int | None = None) -> dict[int, Turn]:
    """Each seat's latest turn in the viewer's kitchen log, in the order they were played: its
    events, and whether it came since the viewer's own last turn (`just`, marked for a moment).

    Several bots answer one move in a row, so the person sees each of those turns; someone who
    does not play (a watcher) sees only the table's newest turn marked.
    """
    runs: list[tuple[int, list[LogLine]]] = []
    for e in log:
        seat = e.get("seat")
        if not isinstance(seat, int):  # a line of no seat's ("over")
            continue
        if not runs or runs[-1][0] != seat:
            runs.append((seat, []))
        runs[-1][1].append(e)
    mine_at = max((n for n, (seat, _) in enumerate(runs) if seat == mine), default=-1)
    since = mine_at + 1 if mine is not None else len(runs) - 1
    turns: dict[int, Turn] = {}
    for n, (seat, events) in enumerate(runs):
        turns.pop(seat, None)  # re-inserted: the dict keeps the order the turns were played in
        turns[seat] = {"events": events, "just": n >= since and seat != mine}
    return turns


def touched(events: Sequence[Mapping[str, object]]) -> set[str]:
    """The market's ingredients a turn moved: taken, paid back, or put back."""
    out: set[str] = set()
    for e in events:
        if e["type"] == "take":
            out.update(cast(list[str], e["ingredients"]))
        elif e["type"] == "buy":
            paid = cast(Mapping[str, int], e.get("paid", {}))
            out.update(name for name, n in paid.items() if n)
        elif e["type"] == "return":
            put_back = cast(Mapping[str, int], e["ingredients"])
            out.update(name for name, n in put_back.items() if n)
    return out
