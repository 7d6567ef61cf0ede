"""Cakehalla's hints: what a customer and Saffron are worth in one line (on the board), and a
practice table's advice (games/services/hints.py): the strongest bot's move in words and one
line of why, from the seat's own view only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.engines.cakehalla import Action, View
from games.engines.cakehalla.shapes import CardView
from games.kinds.cakehalla.words import and_list, count_list, label


def customer_hint(points: int) -> str:
    """What a customer is worth, in one line (on each customer; rules/cakehalla.md)."""
    return f"Visits at the end of your turn when your cards give these discounts: {points} points."


def saffron_hint(wild: str) -> str:
    """What Saffron does, in one line (the market's Saffron, which is never taken)."""
    return (
        f"{label(wild)} is never taken: you get it by reserving a card."
        " It is wild: it pays for any ingredient you are short of."
    )


def visible_cards(view: View) -> dict[str, CardView]:
    """The cards this seat can see by id: the counter's and its own reservations."""
    cards: dict[str, CardView] = {}
    for row in view["counter"].values():
        cards.update((c["id"], c) for c in row if c is not None)
    you = view["you"]
    if you is not None:
        for r in view["seats"][you]["reserved"]:
            if "hidden" not in r:
                cards[r["id"]] = r
    return cards


def take_why(view: View, taken: Sequence[str]) -> str:
    """Why a take helps: the nearest card it brings closer, from the seat's own `short`."""
    you = view["you"]
    short = view["seats"][you].get("short", {}) if you is not None else {}
    cards = visible_cards(view)
    aims = [
        (n, -cards[c]["points"], c)
        for c, n in short.items()
        if n > 0 and c in cards and any(cards[c]["cost"].get(t, 0) for t in taken)
    ]
    if not aims:
        return "The strong bot scores it highest from what you can see."
    n, _, card = min(aims)
    return f"It brings you closer to the {cards[card]['name']} (you are {n} short of it now)."


def saffron_too(view: View) -> str:
    """', and a Saffron' when reserving still earns the wild token."""
    wild = view["rules"]["wild"]
    return f", and you get a {label(wild)}" if view["market"].get(wild, 0) else ""


def meets(discounts: Mapping[str, int], wants: Mapping[str, int]) -> bool:
    """Whether these discounts give at least what a customer wants."""
    return all(discounts.get(name, 0) >= n for name, n in wants.items())


def customers_met_by(view: View, card: CardView | None) -> tuple[list[str], bool]:
    """The face-up customers this card's discount would newly meet for the seat, by name, and
    whether another one is met already (then the seat chooses: one visits a turn)."""
    you = view["you"]
    if you is None or card is None:
        return [], False
    have = view["seats"][you]["discounts"]
    after = {**have, card["discount"]: have.get(card["discount"], 0) + 1}
    met = [c["name"] for c in view["customers"] if meets(after, c["wants"])]
    already = [c["name"] for c in view["customers"] if meets(have, c["wants"])]
    return [name for name in met if name not in already], bool(already)


def visit_why(view: View, card: CardView | None) -> str:
    """' With it, <customer> visits you ...' when the card's discount meets a customer."""
    met, choice = customers_met_by(view, card)
    points = view["rules"]["customer_points"]
    if not met:
        return ""
    if len(met) == 1 and not choice:
        return f" With it {met[0]} visits you at the end of this turn ({points} points)."
    return f" With it {and_list(met)} can visit you ({points} points; one visits a turn)."


def advise(view: View, action: Action) -> tuple[str, str]:
    """The suggested action in words and one line of why, from the seat's own view only."""
    cards = visible_cards(view)
    rules = view["rules"]
    if action["type"] == "take":
        taken = action["ingredients"]
        labels = [label(n) for n in taken]
        words = " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 2 else labels)
        if len(labels) == 2 and labels[0] == labels[1]:
            words = f"two {labels[0]}"
        return f"Take {words}.", take_why(view, taken)
    if action["type"] == "buy":
        card = cards.get(action["card"])  # a card this seat may buy is one it sees
        name = card["name"] if card else "card"
        points = card["points"] if card else 0
        discount = label(card["discount"]) if card else ""
        return (
            f"Buy the {name}.",
            f"It scores {points} point{'' if points == 1 else 's'} and gives a lasting"
            f" {discount} discount.{visit_why(view, card)}",
        )
    if action["type"] == "reserve" and "tier" in action:
        return (
            f"Reserve the top of the tier {action['tier']} pile face down.",
            f"An unseen card kept for later{saffron_too(view)}.",
        )
    if action["type"] == "reserve" and "card" in action:
        name = cards[action["card"]]["name"] if action["card"] in cards else "card"
        return f"Reserve the {name}.", f"It keeps the card from your rivals{saffron_too(view)}."
    if action["type"] == "return":
        return (
            f"Put back {count_list(action['ingredients'])}.",
            f"You may hold {rules['hand_limit']}: these help you least now.",
        )
    if action["type"] == "customer":
        names = {c["id"]: c["name"] for c in view["customers"]}
        return (
            f"Choose {names.get(action['customer'], 'that customer')} to visit.",
            "Your rivals are closest to that customer: it keeps them from winning it.",
        )
    return "Pass.", "Nothing else is allowed now."
