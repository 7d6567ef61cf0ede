"""The 90 cards and 10 famous customers of Cakehalla, exactly as settled in rules/cakehalla.md."""

from typing import NamedTuple

INGREDIENTS: tuple[str, ...] = ("sugar", "blueberry", "matcha", "cherry", "cocoa")
SAFFRON = 5
TOKEN_NAMES: tuple[str, ...] = (*INGREDIENTS, "saffron")
TOKEN_INDEX: dict[str, int] = {name: i for i, name in enumerate(TOKEN_NAMES)}
TIERS: tuple[int, ...] = (1, 2, 3)
TIER_NAMES: dict[int, str] = {1: "Pantry & tools", 2: "Pastries & bakes", 3: "Showstoppers"}

# (points, {slot: amount}) per row; "own" is the discounted ingredient i, "oK" is (i + K) % 5.
_ROWS: dict[int, tuple[tuple[int, dict[str, int]], ...]] = {
    1: (
        (0, {"o1": 1, "o2": 1, "o3": 1, "o4": 1}),
        (0, {"o1": 1, "o2": 2, "o3": 1, "o4": 1}),
        (0, {"o1": 2, "o2": 2, "o4": 1}),
        (0, {"own": 3, "o1": 1, "o4": 1}),
        (0, {"o3": 2, "o4": 1}),
        (0, {"o1": 2, "o4": 2}),
        (0, {"o1": 3}),
        (1, {"o2": 4}),
    ),
    2: (
        (1, {"o2": 3, "o3": 2, "o4": 2}),
        (1, {"own": 2, "o1": 3, "o3": 3}),
        (2, {"o2": 1, "o3": 4, "o4": 2}),
        (2, {"o3": 5, "o4": 3}),
        (2, {"o3": 5}),
        (3, {"own": 6}),
    ),
    3: (
        (3, {"o1": 3, "o2": 3, "o3": 5, "o4": 3}),
        (4, {"o4": 7}),
        (4, {"own": 3, "o3": 3, "o4": 6}),
        (5, {"own": 3, "o4": 7}),
    ),
}

_OBJECTS: dict[int, tuple[str, ...]] = {
    1: (
        "Rolling Pin",
        "Whisk",
        "Piping Bag",
        "Mixing Bowl",
        "Spatula",
        "Flour Sieve",
        "Cookie Cutter",
        "Stand Mixer",
    ),
    2: ("Eclair", "Fruit Tart", "Cream Puff", "Layer Cake", "Mille-feuille", "Bundt Cake"),
    3: ("Croquembouche", "Wedding Cake", "Opera Cake", "Grand Gateau"),
}


class Card(NamedTuple):
    """One card: where it sits, what it is worth, what it discounts and what it costs."""

    id: str
    name: str
    tier: int
    row: int
    discount: int
    points: int
    cost: tuple[int, int, int, int, int]


class Customer(NamedTuple):
    """A famous customer: the discounts it wants before it visits for 3 points."""

    id: str
    name: str
    wants: tuple[int, int, int, int, int]


def _cost(ingredient: int, slots: dict[str, int]) -> tuple[int, int, int, int, int]:
    """The five-ingredient cost of a row for a card that discounts the given ingredient."""
    cost = [0] * 5
    for slot, amount in slots.items():
        offset = 0 if slot == "own" else int(slot[1])
        cost[(ingredient + offset) % 5] = amount
    return (cost[0], cost[1], cost[2], cost[3], cost[4])


def _build_cards() -> tuple[Card, ...]:
    """All 90 cards, tier by tier, ingredient by ingredient, row by row."""
    cards = []
    for tier in TIERS:
        for ingredient, ing_name in enumerate(INGREDIENTS):
            for row, (points, slots) in enumerate(_ROWS[tier], start=1):
                cards.append(
                    Card(
                        id=f"{tier}-{ing_name}-{row}",
                        name=f"{ing_name.capitalize()} {_OBJECTS[tier][row - 1]}",
                        tier=tier,
                        row=row,
                        discount=ingredient,
                        points=points,
                        cost=_cost(ingredient, slots),
                    )
                )
    return tuple(cards)


CARDS: tuple[Card, ...] = _build_cards()
CARD_INDEX: dict[str, int] = {card.id: i for i, card in enumerate(CARDS)}
TIER_CARDS: dict[int, tuple[int, ...]] = {
    tier: tuple(i for i, card in enumerate(CARDS) if card.tier == tier) for tier in TIERS
}

_PAIR_NAMES = ("Lady Meringue", "Baron Blueberry", "The Matcha Monk", "Duchess Cerise", "Old Cacao")
_TRIO_NAMES = (
    "Queen Victoria Sponge",
    "Count Choux",
    "Madame Macaron",
    "Sir Strudel",
    "The Great Gugelhupf",
)


def _build_customers() -> tuple[Customer, ...]:
    """The ten customers: five pairs of 4 + 4 and five trios of 3 + 3 + 3."""
    customers = []
    for kind, amount, width, names in (("pair", 4, 2, _PAIR_NAMES), ("trio", 3, 3, _TRIO_NAMES)):
        for i in range(5):
            wants = [0] * 5
            for k in range(width):
                wants[(i + k) % 5] = amount
            full = (wants[0], wants[1], wants[2], wants[3], wants[4])
            customers.append(Customer(f"{kind}-{i}", names[i], full))
    return tuple(customers)


CUSTOMERS: tuple[Customer, ...] = _build_customers()
CUSTOMER_INDEX: dict[str, int] = {c.id: i for i, c in enumerate(CUSTOMERS)}
CUSTOMER_POINTS = 3
