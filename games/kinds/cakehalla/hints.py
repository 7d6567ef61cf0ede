"""Cakehalla's hints: what a customer and Saffron are worth in one line (on the board), and a
practice table's advice (games/services/hints.py): the strongest bot's move in words and one
line of why, from the seat's own view only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext, ngettext

from games.engines.cakehalla import Action, View
from games.engines.cakehalla.shapes import CardView
from games.kinds.cakehalla.words import and_list, count_list, label


def customer_hint(points: int) -> str:
    """What a customer is worth, in one line (on each customer; rules/cakehalla.md)."""
    return ngettext(
        "Visits at the end of your turn when your cards give these discounts: %(points)s point.",
        "Visits at the end of your turn when your cards give these discounts: %(points)s points.",
        points,
    ) % {"points": points}


def saffron_hint(wild: str) -> str:
    """What Saffron does, in one line (the market's Saffron, which is never taken)."""
    return gettext(
        "%(wild)s is never taken: you get it by reserving a card."
        " It is wild: it pays for any ingredient you are short of."
    ) % {"wild": label(wild)}


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
        return gettext("The strong bot scores it highest from what you can see.")
    n, _, card = min(aims)
    return ngettext(
        "It brings you closer to the %(card)s (you are %(n)s short of it now).",
        "It brings you closer to the %(card)s (you are %(n)s short of it now).",
        n,
    ) % {"card": cards[card]["name"], "n": n}


def saffron_too(view: View) -> bool:
    """Whether reserving still earns the wild token (the market has one left)."""
    wild = view["rules"]["wild"]
    return bool(view["market"].get(wild, 0))


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
    """'With it, <customer> visits you ...' when the card's discount meets a customer."""
    met, choice = customers_met_by(view, card)
    points = view["rules"]["customer_points"]
    if not met:
        return ""
    if len(met) == 1 and not choice:
        return ngettext(
            "With it %(customer)s visits you at the end of this turn (%(points)s point).",
            "With it %(customer)s visits you at the end of this turn (%(points)s points).",
            points,
        ) % {"customer": met[0], "points": points}
    return ngettext(
        "With it %(customers)s can visit you (%(points)s point; one visits a turn).",
        "With it %(customers)s can visit you (%(points)s points; one visits a turn).",
        points,
    ) % {"customers": and_list(met), "points": points}


def advise(view: View, action: Action) -> tuple[str, str]:
    """The suggested action in words and one line of why, from the seat's own view only."""
    cards = visible_cards(view)
    if action["type"] == "take":
        taken = action["ingredients"]
        labels = [label(n) for n in taken]
        if len(labels) == 2 and labels[0] == labels[1]:
            return gettext("Take two %(name)s.") % {"name": labels[0]}, take_why(view, taken)
        return gettext("Take %(taken)s.") % {"taken": and_list(labels)}, take_why(view, taken)
    if action["type"] == "buy":
        return buy_advice(view, cards.get(action["card"]))  # a card it may buy is one it sees
    if action["type"] == "reserve" and "tier" in action:
        return blind_advice(view, action["tier"])
    if action["type"] == "reserve" and "card" in action:
        return reserve_advice(view, cards.get(action["card"]))
    if action["type"] == "return":
        limit = view["rules"]["hand_limit"]
        return (
            gettext("Put back %(returned)s.") % {"returned": count_list(action["ingredients"])},
            ngettext(
                "You may hold %(limit)s: these help you least now.",
                "You may hold %(limit)s: these help you least now.",
                limit,
            )
            % {"limit": limit},
        )
    if action["type"] == "customer":
        names = {c["id"]: c["name"] for c in view["customers"]}
        chosen = names.get(action["customer"])
        return (
            gettext("Choose %(customer)s to visit.") % {"customer": chosen}
            if chosen
            else gettext("Choose that customer to visit."),
            gettext("Your rivals are closest to that customer: it keeps them from winning it."),
        )
    return gettext("Pass."), gettext("Nothing else is allowed now.")


def buy_advice(view: View, card: CardView | None) -> tuple[str, str]:
    """Buying this card in words, and what it scores and gives."""
    if card is None:
        return gettext("Buy that card."), ""
    points = card["points"]
    why = ngettext(
        "It scores %(points)s point and gives a lasting %(discount)s discount.",
        "It scores %(points)s points and gives a lasting %(discount)s discount.",
        points,
    ) % {"points": points, "discount": label(card["discount"])}
    visit = visit_why(view, card)
    return gettext("Buy the %(card)s.") % {"card": card["name"]}, f"{why} {visit}" if visit else why


def blind_advice(view: View, tier: int) -> tuple[str, str]:
    """Reserving the top of a pile in words, and what it keeps."""
    words = gettext("Reserve the top of the tier %(tier)s pile face down.") % {"tier": tier}
    if saffron_too(view):
        wild = label(view["rules"]["wild"])
        return words, gettext("An unseen card kept for later, and you get a %(wild)s.") % {
            "wild": wild
        }
    return words, gettext("An unseen card kept for later.")


def reserve_advice(view: View, card: CardView | None) -> tuple[str, str]:
    """Reserving a face-up card in words, and what it keeps."""
    words = (
        gettext("Reserve the %(card)s.") % {"card": card["name"]}
        if card
        else gettext("Reserve that card.")
    )
    if saffron_too(view):
        wild = label(view["rules"]["wild"])
        return words, gettext("It keeps the card from your rivals, and you get a %(wild)s.") % {
            "wild": wild
        }
    return words, gettext("It keeps the card from your rivals.")
