"""The Cakehalla board of one viewer: the counter, the market, the bakeries, the customers, the
dialogs and the final standings, from that seat's own view and legal actions (the counter's
cards and the market's tokens are counter.py).

Every rule (limits, costs, what a baker is short of, the tie-break) comes from the engine's view
and result; this module only words and draws them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TypedDict, cast

from django.utils.translation import gettext, ngettext

from games.engines.cakehalla import Action, View
from games.engines.cakehalla.shapes import CardView, SeatView
from games.kinds.base import GameRow, SeatRow
from games.kinds.cakehalla.counter import (
    Legal,
    card_box,
    counter_rows,
    market_tokens,
    said_for,
)
from games.kinds.cakehalla.hints import customer_hint
from games.kinds.cakehalla.log import Turn, last_turns, log_lines, touched
from games.kinds.cakehalla.standings import standings
from games.kinds.cakehalla.words import (
    action_json,
    count_list,
    label,
    offer_json,
    player_names,
    token_art,
    tokens,
)

# While a game runs, the kitchen log shows the newest lines only: every move redraws it on every
# screen, and a long game's whole log would cost more with each move. At the end it shows all.
LOG_LINES = 30


def blocked(view: View, mine: int | None, legal: Legal) -> str:
    """Why the viewer cannot act on the table now, or '' when they can."""
    if view["over"]:
        return gettext("The game is over.")
    if mine is None:
        return gettext("You are watching this game.")
    if view["turn"] != mine:
        # Not the player's name: this reason sits on every card and token, and a name that changes
        # each turn would redraw the whole counter on every screen at every move.
        return gettext("It is not your turn.")
    if view["pending"] == "return":
        limit = view["rules"]["hand_limit"]
        return ngettext(
            "Put ingredients back down to %(limit)s first.",
            "Put ingredients back down to %(limit)s first.",
            limit,
        ) % {"limit": limit}
    if view["pending"] == "customer":
        return gettext("Choose which customer visits first.")
    if not legal.any:
        return gettext("You cannot act now.")
    return ""


def token_row(name: str, box: SeatView) -> dict[str, object]:
    """One ingredient as a row shows it: name, label, art and how many the baker holds (no shape
    in words: no row's template says it, and a row is part of a piece's key, as the market's
    tokens are not)."""
    return {
        "name": name,
        "label": label(name),
        "art": token_art(name),
        "held": box["ingredients"][name],
    }


def bakery_rows(box: SeatView, names: Sequence[str]) -> list[dict[str, object]]:
    """Per ingredient: the discount card count and the tokens held (Saffron has no card)."""
    return [{**token_row(name, box), "discount": box["discounts"].get(name)} for name in names]


class BakerBox(TypedDict):
    """A baker's box as the board shows it: the public bakery and where it stands. Only what the
    boxes' templates read (_baker.html, _info.html, _mine.html): a box is a piece's key and the
    bakers' regions' input, marshalled on every push of every viewer (games/boards/plain.py), so
    the bakery's bought cards, its counts per ingredient (its `rows` say them) and the costs of
    its reserved cards are left out."""

    points: int
    cards_bought: int
    customers: list[str]
    customer_names: list[str]
    reserved: list[Mapping[str, object]]
    position: int
    player: str
    bot: str
    me: bool
    turn: bool
    held: int
    rows: list[dict[str, object]]
    reserved_cards: list[Mapping[str, object]]
    last: str
    just: bool


def baker_boxes(
    view: View,
    names: list[str],
    mine: int | None,
    seats: Sequence[SeatRow],
    turns: Mapping[int, Turn],
) -> list[BakerBox]:
    """Every baker's public box: ingredients, discounts, reserved cards, customers, points, and
    what they did on their latest turn (`last`; `just` when it came since the viewer's own)."""
    bots = {s.position: s.bot for s in seats if s.position is not None}
    kinds = tokens(view)
    out: list[BakerBox] = []
    for i, box in enumerate(view["seats"]):
        # A reserved card as the box names it (a rival's face-down one: its tier alone).
        reserved: list[Mapping[str, object]] = [
            r if "hidden" in r else {"name": r["name"], "blind": r.get("blind", False)}
            for r in box["reserved"]
        ]
        out.append(
            {
                "points": box["points"],
                "cards_bought": box["cards_bought"],
                "customers": box["customers"],
                "customer_names": box["customer_names"],
                "reserved": reserved,
                "position": i,
                "player": names[i],
                "bot": bots.get(i, ""),
                "me": i == mine,
                "turn": view["turn"] == i,
                "held": sum(box["ingredients"].values()),
                "rows": bakery_rows(box, kinds),
                "reserved_cards": reserved,
                "last": " ".join(log_lines(turns[i]["events"], names, view["rules"]))
                if i in turns
                else "",
                "just": i in turns and turns[i]["just"],
            }
        )
    return out


def customer_boxes(view: View, box: SeatView | None) -> list[dict[str, object]]:
    """The face-up customers, each want ticked where the viewer already has that many, and what
    a customer is worth (`hint`)."""
    hint = customer_hint(view["rules"]["customer_points"])
    out = []
    for customer in view["customers"]:
        wants = [
            {
                "name": name,
                "label": label(name),
                "art": token_art(name),
                "n": n,
                "met": box is not None and box["discounts"][name] >= n,
            }
            for name, n in customer["wants"].items()
        ]
        out.append(
            {
                **customer,
                "wants_list": wants,
                "all_met": all(w["met"] for w in wants),
                "hint": hint,
            }
        )
    return out


def return_rows(view: View, box: SeatView) -> list[dict[str, object]]:
    """The put-back dialog's rows: what the baker holds of each ingredient."""
    return [token_row(name, box) for name in tokens(view) if box["ingredients"][name]]


def customer_choices(legal: Legal, view: View) -> list[dict[str, object]]:
    """The customers the viewer may choose between, each with its choose action."""
    faces = {c["id"]: c for c in view["customers"]}
    return [
        {
            "id": cid,
            "name": faces[cid]["name"],
            "wants": count_list(faces[cid]["wants"]),
            "choose": offer_json("customer", "customer", cid),
        }
        for cid in legal.customers
    ]


def rival_moved(turns: Mapping[int, Turn]) -> set[str]:
    """The market piles that the rivals' (and bots') turns since the viewer's own moved."""
    return {name for turn in turns.values() if turn["just"] for name in touched(turn["events"])}


def just_now(turns: Mapping[int, Turn], bakers: list[BakerBox]) -> list[str]:
    """Those turns in words, in the order they were played."""
    return [bakers[seat]["last"] for seat, turn in turns.items() if turn["just"]]


def numbered(lines: list[str], total: int) -> list[tuple[int, str]]:
    """The kitchen log's newest lines, newest first, each with its number in the whole log."""
    return list(zip(range(total, total - len(lines), -1), lines, strict=True))


def context(
    game: GameRow, view: View, legal: list[Action], me: SeatRow | None, seats: Sequence[SeatRow]
) -> dict[str, object]:
    """Template context for the Cakehalla board of one viewer."""
    mine = me.position if me is not None else None
    names = player_names(view, seats, game.spec.seat_names)
    allowed = Legal(legal)
    rules = view["rules"]
    wait = blocked(view, mine, allowed)
    said = said_for(rules)  # the words every card and token says alike, asked once
    turns = last_turns(view["log"], mine)
    bakers = baker_boxes(view, names, mine, seats, turns)
    my_box = bakers[mine] if mine is not None else None
    my_view = view["seats"][mine] if mine is not None else None
    reserved = []
    if my_view is not None:
        # The viewer's own reserved cards: none is hidden from its owner.
        reserved = [
            card_box(
                cast(CardView, r),
                where="reserve",
                box=my_view,
                legal=allowed,
                wait=wait,
                rules=rules,
                said=said,
            )
            for r in my_view["reserved"]
        ]
    held = sum(my_view["ingredients"].values()) if my_view else 0
    return {
        "view": view,
        "my_turn": not wait,
        "turn_name": names[view["turn"]] if view["turn"] is not None else "",
        # The rivals' (and bots') turns since the viewer's own, in words at the top, where a
        # phone's screen starts.
        "just_now": just_now(turns, bakers),
        "customers": customer_boxes(view, my_view),
        "bakers": bakers,
        "my_box": my_box,
        "reserved": reserved,
        "rows": counter_rows(view, my_view, allowed, wait, said),
        "market": market_tokens(view, allowed, wait, said, rival_moved(turns)),
        "takes_json": json.dumps([list(t) for t in allowed.takes]),
        "can_pass": allowed.passing,
        "pass_action": action_json({"type": "pass"}),
        "returning": allowed.returning,
        "excess": held - rules["hand_limit"],
        "held": held,
        "return_rows": return_rows(view, my_view) if allowed.returning and my_view else [],
        "choosing": customer_choices(allowed, view) if allowed.customers else [],
        "log": numbered(
            log_lines(
                list(reversed(view["log"] if view["over"] else view["log"][-LOG_LINES:])),
                names,
                rules,
            ),
            len(view["log"]),
        ),
        "log_total": len(view["log"]),
        "final": standings(view, names) if view["over"] else None,
        "piles": [(t, rules["tier_names"][t], view["piles"][t]) for t in ("1", "2", "3")],
        "hand_limit": rules["hand_limit"],
        "reserve_limit": rules["reserve_limit"],
    }
