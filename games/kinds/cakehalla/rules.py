"""What Cakehalla's How to play page reads from the engine's own tables."""

from __future__ import annotations

from typing import TypedDict

from games.engines.cakehalla.cards import CUSTOMERS, INGREDIENTS
from games.kinds.cakehalla.words import and_list, label


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
    ("4 Sugar and 4 Blueberry") and as tokens: the rules page lists them all."""
    table: list[Customer] = []
    for customer in CUSTOMERS:
        wants = [(i, n) for i, n in zip(INGREDIENTS, customer.wants, strict=True) if n]
        table.append(
            {
                "id": customer.id,
                "name": customer.name,
                "words": and_list([f"{n} {label(i)}" for i, n in wants]),
                "wants": [{"name": i, "label": label(i), "n": n} for i, n in wants],
            }
        )
    return table
