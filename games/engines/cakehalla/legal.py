"""What a baker may do now: every legal action of a seat, and what their ingredients and
discounts buy (actions.py applies an action; the bots and the view read these too)."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from games.engines.cakehalla.cards import CARDS, CUSTOMERS, INGREDIENTS, TOKEN_NAMES
from games.engines.cakehalla.shapes import Action
from games.engines.cakehalla.state import EMPTY, HAND_LIMIT, RESERVE_LIMIT, Baker, State
from games.engines.cakehalla.turn import visiting_customers

ORDINARY_INDEX: dict[str, int] = {name: i for i, name in enumerate(INGREDIENTS)}
CARD_IDS: tuple[str, ...] = tuple(card.id for card in CARDS)
CARD_TIER0: tuple[int, ...] = tuple(card.tier - 1 for card in CARDS)
COST_NZ: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((i, n) for i, n in enumerate(card.cost) if n) for card in CARDS
)
TWO_ALIKE_MIN = 4


def _take_options(mask: int) -> tuple[tuple[str, ...], ...]:
    """Every take of different kinds when the kinds in mask are left in the market."""
    kinds = [i for i in range(5) if mask >> i & 1]
    width = min(3, len(kinds))
    if not width:
        return ()
    return tuple(tuple(INGREDIENTS[i] for i in combo) for combo in combinations(kinds, width))


TAKE_DIFFERENT: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    _take_options(mask) for mask in range(32)
)


def buying_power(baker: Baker) -> tuple[int, ...]:
    """What the baker pays each ordinary ingredient with: tokens plus discounts."""
    tokens, discounts = baker.tokens, baker.discounts
    return tuple(tokens[i] + discounts[i] for i in range(5))


def shortfall(card: int, power: tuple[int, ...]) -> int:
    """How many ingredients the buying power lacks for the card (Saffron must cover them)."""
    short = 0
    for i, n in COST_NZ[card]:
        n -= power[i]
        if n > 0:
            short += n
    return short


def can_afford(baker: Baker, card: int) -> bool:
    """Whether the baker's ingredients, discounts and Saffron cover the card."""
    return shortfall(card, buying_power(baker)) <= baker.tokens[5]


@lru_cache(maxsize=4096)
def _return_plans(tokens: tuple[int, ...]) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every way to put back exactly the excess over 10 from what the baker holds."""
    plans: list[tuple[tuple[str, int], ...]] = []

    def walk(i: int, left: int, chosen: tuple[tuple[str, int], ...]) -> None:
        if left == 0:
            plans.append(chosen)
            return
        if i == 6:
            return
        for n in range(min(left, tokens[i]), -1, -1):
            walk(i + 1, left - n, (*chosen, (TOKEN_NAMES[i], n)) if n else chosen)

    walk(0, sum(tokens) - HAND_LIMIT, ())
    return tuple(plans)


def legal_actions(state: State, seat: int | None) -> list[Action]:
    """Every legal action of that seat now; [] when it is not theirs to act."""
    if state.over or seat is None or seat != state.turn:
        return []
    pending = state.pending
    baker = state.bakers[seat]
    if pending == "return":
        return [
            {"type": "return", "ingredients": dict(plan)} for plan in _return_plans(baker.tokens)
        ]
    if pending == "customer":
        return [
            {"type": "customer", "customer": CUSTOMERS[c].id}
            for c in visiting_customers(state, seat)
        ]
    m = state.market
    out: list[Action] = [
        {"type": "take", "ingredients": list(combo)}
        for combo in TAKE_DIFFERENT[
            (m[0] > 0) | (m[1] > 0) << 1 | (m[2] > 0) << 2 | (m[3] > 0) << 3 | (m[4] > 0) << 4
        ]
    ]
    for i in range(5):
        if m[i] >= TWO_ALIKE_MIN:
            name = INGREDIENTS[i]
            out.append({"type": "take", "ingredients": [name, name]})
    power = buying_power(baker)
    saffron = baker.tokens[5]
    may_reserve = len(baker.reserved) < RESERVE_LIMIT
    for row in state.counter:
        for c in row:
            if c == EMPTY:
                continue
            if may_reserve:
                out.append({"type": "reserve", "card": CARD_IDS[c]})
            if shortfall(c, power) <= saffron:
                out.append({"type": "buy", "card": CARD_IDS[c]})
    if may_reserve:
        for t, pile in enumerate(state.piles):
            if pile:
                out.append({"type": "reserve", "tier": t + 1})
    for c, _blind in baker.reserved:
        if shortfall(c, power) <= saffron:
            out.append({"type": "buy", "card": CARD_IDS[c]})
    if not out:
        out.append({"type": "pass"})
    return out


def has_main_action(state: State, seat: int) -> bool:
    """Whether the baker can take, reserve or buy anything at all."""
    m = state.market
    if m[0] or m[1] or m[2] or m[3] or m[4]:
        return True
    baker = state.bakers[seat]
    on_counter = [c for row in state.counter for c in row if c != EMPTY]
    if len(baker.reserved) < RESERVE_LIMIT and (on_counter or any(state.piles)):
        return True
    return any(can_afford(baker, c) for c in on_counter + [c for c, _ in baker.reserved])
