"""Cakehalla's kitchen log in words: each line, and each baker's latest turn in it. Each line is
told in the reader's language from the event's codes; in English the words are as they always
were (tests/kinds/cakehalla/test_log_words.py)."""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict, cast

from django.utils.translation import get_language, gettext, ngettext

from games.engines.cakehalla.shapes import LogLine, Rules
from games.kinds.cakehalla.words import count_list, label


class Turn(TypedDict):
    """A seat's latest turn in a viewer's log: its events, and whether it came since the
    viewer's own last turn."""

    events: list[LogLine]
    just: bool


def event_text(event: Mapping[str, object], names: list[str], rules: Rules) -> str:
    """One kitchen log line in the language active, told from its type and codes (the seat, the
    ingredients, the card, the customer: the game's own names, as they are in every language)."""
    kind = event["type"]
    said: dict[str, object] = {"who": names[cast(int, event["seat"])] if "seat" in event else ""}
    if kind == "take":
        said["taken"] = ", ".join(label(n) for n in cast(list[str], event["ingredients"]))
        return gettext("%(who)s took %(taken)s.") % said
    if kind == "reserve" and event.get("blind"):
        said["tier"] = event["tier"]
        if "name" in event:
            said["card"] = event["name"]
            return (
                gettext(
                    "%(who)s reserved the top of the tier %(tier)s pile face down (the %(card)s)."
                )
                % said
            )
        return gettext("%(who)s reserved the top of the tier %(tier)s pile face down.") % said
    if kind == "reserve":
        return gettext("%(who)s reserved the %(card)s.") % {**said, "card": event["name"]}
    if kind == "buy":
        paid = count_list(cast(Mapping[str, int], event["paid"]))
        said["card"] = event["name"]
        if not paid:
            return gettext("%(who)s bought the %(card)s, paying nothing.") % said
        return gettext("%(who)s bought the %(card)s, paying %(paid)s.") % {**said, "paid": paid}
    if kind == "return":
        said["returned"] = count_list(cast(Mapping[str, int], event["ingredients"]))
        return gettext("%(who)s put back %(returned)s.") % said
    if kind == "customer":
        points = rules["customer_points"]
        said.update(customer=event["name"], points=points)
        return (
            ngettext(
                "%(customer)s visited %(who)s: %(points)s point.",
                "%(customer)s visited %(who)s: %(points)s points.",
                points,
            )
            % said
        )
    if kind == "final":
        points = rules["winning_points"]
        said["points"] = points
        return (
            ngettext(
                "%(who)s reached %(points)s point: this is the last round.",
                "%(who)s reached %(points)s points: this is the last round.",
                points,
            )
            % said
        )
    if kind == "pass":
        return gettext("%(who)s could do nothing and passed.") % said
    if kind == "over":
        return gettext("The game is over.")
    return f"{said['who']} {kind}."


# Each line's words by the language and all the line says: every push tells each viewer's log
# (30 lines and each baker's latest turn), and a line's gettext costs microseconds
# (docs/performance.md), as Midnight Bakery's log.py keeps its own.
_told: dict[tuple[object, ...], str] = {}
TOLD_KEEP = 20_000


def line_key(event: Mapping[str, object], who: str) -> tuple[object, ...]:
    """What a line's words depend on besides the language and the rules: its seat's name, and
    the event itself (its type and values, as marshal writes them: equal bytes only for equal
    values of equal types; a C call, a third of the Python loop over its items it replaced,
    docs/performance.md)."""
    return (who, marshal.dumps(cast("dict[str, Any]", event), 2))


def log_lines(events: Sequence[Mapping[str, object]], names: list[str], rules: Rules) -> list[str]:
    """event_text of each line, in the language active, kept per process."""
    language = get_language()
    points = (rules["customer_points"], rules["winning_points"])
    out = []
    for event in events:
        seat = event.get("seat")
        who = names[seat] if isinstance(seat, int) else ""
        key = (language, points, line_key(event, who))
        found = _told.get(key)
        if found is None:
            if len(_told) >= TOLD_KEEP:
                _told.clear()
            found = _told[key] = event_text(event, names, rules)
        out.append(found)
    return out


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
