"""What Cakehalla's How to play page reads from the engine's own tables."""

from __future__ import annotations

from typing import TypedDict

from django.utils.text import get_text_list
from django.utils.translation import gettext

from games.engines.cakehalla.cards import CARD_INDEX, CARDS, CUSTOMERS, INGREDIENTS
from games.kinds.cakehalla.words import label

SAMPLES = {"pin": "1-sugar-1", "bundt": "2-cherry-6", "gateau": "3-cocoa-4"}
"""The page's sample card of each tier (the drawings beside the tiers), by the engine's ids."""


class Want(TypedDict):
    """One ingredient a customer wants, and how many discounts of it."""

    name: str
    label: str
    n: int


class Customer(TypedDict):
    """A famous customer as the rules page lists it."""

    id: str
    name: str
    words: str
    wants: list[Want]


def customer_table() -> list[Customer]:
    """Every famous customer of the engine's table, in its order, with what each wants in words
    ("4 Sugar and 4 Blueberry", in the reader's language; the ingredients are the game's proper
    names) and as tokens: the rules page lists them all."""
    table: list[Customer] = []
    for customer in CUSTOMERS:
        wants = [(i, n) for i, n in zip(INGREDIENTS, customer.wants, strict=True) if n]
        table.append(
            {
                "id": customer.id,
                "name": customer.name,
                "words": get_text_list([f"{n} {label(i)}" for i, n in wants], gettext("and")),
                "wants": [{"name": i, "label": label(i), "n": n} for i, n in wants],
            }
        )
    return table


def sample_cards() -> dict[str, str]:
    """The sample cards' names (proper names in every language), from the engine's table."""
    return {key: CARDS[CARD_INDEX[card]].name for key, card in SAMPLES.items()}
