"""The Cakehalla counter of one viewer: the cards (the market's and their own reserved ones) and
the market's tokens, each with what the viewer may do with it and why not (board.py gathers the
whole board)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import NamedTuple, TypedDict

from django.utils.translation import get_language, gettext, ngettext

from games.engines.cakehalla import Action, View
from games.engines.cakehalla.shapes import CardView, Rules, SeatView
from games.kinds.cakehalla.hints import saffron_hint
from games.kinds.cakehalla.words import (
    label,
    offer_json,
    shapes_in,
    token_art,
    tokens,
)


class Legal:
    """The seat's legal actions, sorted by what the board needs to ask of them."""

    def __init__(self, legal: Sequence[Action]) -> None:
        self.takes = sorted({tuple(sorted(a["ingredients"])) for a in legal if a["type"] == "take"})
        self.buy = {a["card"] for a in legal if a["type"] == "buy"}
        self.reserve = {a["card"] for a in legal if a["type"] == "reserve" and "card" in a}
        self.blind = {a["tier"] for a in legal if a["type"] == "reserve" and "tier" in a}
        self.customers = [a["customer"] for a in legal if a["type"] == "customer"]
        self.returning = any(a["type"] == "return" for a in legal)
        self.passing = any(a["type"] == "pass" for a in legal)
        self.any = bool(legal)


class Cost(TypedDict):
    """One ingredient of a card's cost as the board draws it: how many, and how many the viewer
    still pays after their discounts (`covered` when they pay none)."""

    name: str
    label: str
    n: int
    art: str
    covered: bool
    pay: int


def cost_items(
    card: CardView, discounts: Mapping[str, int] | None, ingredients: Sequence[str]
) -> list[Cost]:
    """The cost in the five-ingredient order, each marked covered when discounts pay it all."""
    out: list[Cost] = []
    for name in ingredients:
        n = card["cost"].get(name, 0)
        if not n:
            continue
        have = discounts[name] if discounts else 0
        out.append(
            {
                "name": name,
                "label": label(name),
                "n": n,
                "art": token_art(name),
                "covered": have >= n,
                "pay": max(0, n - have),
            }
        )
    return out


def reserve_full(limit: int) -> str:
    """Why a baker may not reserve another card."""
    return ngettext(
        "You already hold %(limit)s reserved card.",
        "You already hold %(limit)s reserved cards.",
        limit,
    ) % {"limit": limit}


def two_alike(least: int) -> str:
    """Why a pile cannot give two alike."""
    return ngettext(
        "Two alike need %(least)s or more in the pile.",
        "Two alike need %(least)s or more in the pile.",
        least,
    ) % {"least": least}


class Said(NamedTuple):
    """The counter's words that read alike on every card, pile and token of one render, in one
    language: asked of the catalogue once a language and rules, not once a card or token (they
    were about fifty gettext calls a viewer a push; docs/performance.md)."""

    reserve_full: str
    two_alike: str
    pile_empty: str
    free: str
    costs: str
    covered: str
    costs_pay: str
    shapes: Mapping[str, str]
    language: str | None


@lru_cache(maxsize=64)
def said_in(language: str | None, reserve_limit: int, two_alike_min: int) -> Said:
    """The counter's words in this language (the language active when it is first asked) for
    these limits."""
    return Said(
        reserve_full=reserve_full(reserve_limit),
        two_alike=two_alike(two_alike_min),
        pile_empty=gettext("This pile is empty."),
        free=gettext("free"),
        costs=gettext("costs %(cost)s"),
        covered=gettext("costs %(cost)s; you pay nothing, your discounts cover it"),
        costs_pay=gettext("costs %(cost)s; you pay %(pay)s"),
        shapes=shapes_in(language),
        language=language,
    )


def said_for(rules: Rules) -> Said:
    """The counter's words for a board with these rules, in the language active."""
    return said_in(get_language(), rules["reserve_limit"], rules["two_alike_min"])


@lru_cache(maxsize=256)
def short_of(language: str | None, short: int) -> str:
    """Why a card cannot be bought: the ingredients still missing, in this language (the one
    active when it is first asked)."""
    return ngettext(
        "You need %(short)s more ingredient.", "You need %(short)s more ingredients.", short
    ) % {"short": short}


def cost_words(costs: list[Cost], discounted: bool, said: Said) -> str:
    """A card's cost in words, for its accessible name: 'costs 3 Sugar, 2 Cherry; you pay 1 Sugar,
    2 Cherry' (what the viewer pays after their discounts, when those change it), in `said`'s
    language."""
    if not costs:
        return said.free
    full = ", ".join(f"{c['n']} {c['label']}" for c in costs)
    if not discounted or all(c["pay"] == c["n"] for c in costs):
        return said.costs % {"cost": full}
    pay = ", ".join(f"{c['pay']} {c['label']}" for c in costs if c["pay"])
    if not pay:
        return said.covered % {"cost": full}
    return said.costs_pay % {"cost": full, "pay": pay}


def card_box(
    card: CardView,
    *,
    where: str,
    box: SeatView | None,
    legal: Legal,
    wait: str,
    rules: Rules,
    said: Said,
) -> dict[str, object]:
    """A face-up card with its Buy and Reserve offers and why each may be refused (`said`: the
    render's words, said_for)."""
    can_buy = card["id"] in legal.buy
    can_reserve = where == "counter" and card["id"] in legal.reserve
    if can_buy:
        buy_why = ""
    elif wait:
        buy_why = wait
    else:
        buy_why = short_of(said.language, box["short"].get(card["id"], 0) if box else 0)
    if can_reserve or where != "counter":
        reserve_why = ""
    elif wait:
        reserve_why = wait
    else:
        reserve_why = said.reserve_full
    costs = cost_items(card, box["discounts"] if box else None, rules["ingredients"])
    discount_token = {
        "name": card["discount"],
        "label": label(card["discount"]),
        "art": token_art(card["discount"]),
    }
    # All the offer (_offer.html) reads, and nothing else: these values are the offer's key as a
    # piece and part of the counter's region inputs, marshalled on every push of every viewer
    # (games/boards/plain.py), so nothing goes in twice or unread (the card's own fields but its
    # id, name and points are read by its face only).
    return {
        "id": card["id"],
        "name": card["name"],
        "points": card["points"],
        "discount_label": discount_token["label"],
        "cost_words": cost_words(costs, box is not None, said),
        "can_buy": can_buy,
        # All the card's face (_card.html) reads, and nothing else: a piece of its own, so an
        # offer drawn again for its reasons alone (the turn passed) takes the face already drawn.
        "face": {
            "tier": card["tier"],
            "discount": card["discount"],
            "can_buy": can_buy,
            "points": card["points"],
            "discount_label": discount_token["label"],
            "discount_token": discount_token,
            "name": card["name"],
            "costs": costs,
            "blind": card.get("blind"),
        },
        "buy": offer_json("buy", "card", card["id"]),
        "buy_why": buy_why,
        "can_reserve": can_reserve,
        "reserve": offer_json("reserve", "card", card["id"]),
        "reserve_why": reserve_why,
        "where": where,
    }


def counter_rows(
    view: View, box: SeatView | None, legal: Legal, wait: str, said: Said
) -> list[dict[str, object]]:
    """The counter's rows, the showstoppers on top and the pantry at the bottom."""
    rules = view["rules"]
    rows = []
    for tier in ("3", "2", "1"):
        count = view["piles"][tier]
        can_blind = int(tier) in legal.blind
        if can_blind:
            why = ""
        elif wait:
            why = wait
        elif not count:
            why = said.pile_empty
        else:
            why = said.reserve_full
        rows.append(
            {
                "tier": int(tier),
                "tier_name": rules["tier_names"][tier],
                "pile": count,
                "can_blind": can_blind,
                "blind": offer_json("reserve", "tier", int(tier)),
                "blind_why": why,
                "cards": [
                    card_box(
                        c, where="counter", box=box, legal=legal, wait=wait, rules=rules, said=said
                    )
                    if c
                    else None
                    for c in view["counter"][tier]
                ],
            }
        )
    return rows


def market_tokens(
    view: View,
    legal: Legal,
    wait: str,
    said: Said,
    moved: AbstractSet[str] = frozenset(),
) -> list[dict[str, object]]:
    """The market's piles, each with whether it can be picked once or twice and why not, and
    whether a rival's turn since the viewer's own moved it (`just`)."""
    takeable = {name for take in legal.takes for name in take}
    rules = view["rules"]
    wild = rules["wild"]
    out = []
    for name in tokens(view):
        left = view["market"][name]
        if name == wild:
            why = saffron_hint(wild)
        elif wait:
            why = wait
        elif not left:
            why = gettext("No %(name)s left in the market.") % {"name": label(name)}
        elif name not in takeable:
            why = gettext("%(name)s cannot be taken now.") % {"name": label(name)}
        else:
            why = ""
        two = not why and (name, name) in legal.takes
        out.append(
            {
                "name": name,
                "label": label(name),
                "shape": said.shapes[name],
                "art": token_art(name),
                "left": left,
                "why": why,
                "two": two,
                "two_why": "" if two else said.two_alike,
                "just": name in moved,
            }
        )
    return out
