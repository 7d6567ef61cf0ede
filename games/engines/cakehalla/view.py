"""What one seat may see: the whole table but the pile order and rivals' blind reservations."""

from __future__ import annotations

from games.engines.cakehalla.cards import (
    CARD_INDEX,
    CARDS,
    CUSTOMER_INDEX,
    CUSTOMER_POINTS,
    CUSTOMERS,
    INGREDIENTS,
    SAFFRON,
    TIER_NAMES,
    TOKEN_NAMES,
)
from games.engines.cakehalla.legal import TWO_ALIKE_MIN, buying_power, shortfall
from games.engines.cakehalla.shapes import (
    BlindReserveLine,
    CardView,
    CustomerView,
    HiddenCardView,
    LogLine,
    ReservedCardView,
    Rules,
    SeatView,
    View,
)
from games.engines.cakehalla.state import (
    EMPTY,
    HAND_LIMIT,
    RESERVE_LIMIT,
    WINNING_POINTS,
    Baker,
    Event,
    State,
    log_events,
)
from games.engines.cakehalla.turn import result, winners

_FACES = tuple(
    (
        card.id,
        card.name,
        card.tier,
        card.points,
        INGREDIENTS[card.discount],
        tuple((INGREDIENTS[i], n) for i, n in enumerate(card.cost) if n),
    )
    for card in CARDS
)


def card_view(c: int) -> CardView:
    """A card as the players see it."""
    card_id, name, tier, points, discount, cost = _FACES[c]
    return {
        "id": card_id,
        "name": name,
        "tier": tier,
        "points": points,
        "discount": discount,
        "cost": dict(cost),
    }


def _reserved_view(c: int, blind: bool, shown: bool) -> ReservedCardView | HiddenCardView:
    """A reserved card: face and all when shown, else only its tier."""
    if blind and not shown:
        return {"tier": CARDS[c].tier, "hidden": True}
    return {**card_view(c), "blind": blind}


def card_name(card_id: str) -> str:
    """A card's printed name (public: every face is in the rules)."""
    return CARDS[CARD_INDEX[card_id]].name


def customer_name(customer_id: str) -> str:
    """A famous customer's printed name."""
    return CUSTOMERS[CUSTOMER_INDEX[customer_id]].name


def _event_view(event: Event, seat: int | None, over: bool) -> LogLine:
    """One log event as the viewer may read it (cards and customers also by name)."""
    if event[0] == "take":
        return {"type": "take", "seat": event[1], "ingredients": list(event[2:])}
    if event[0] == "reserve":
        card = event[2]
        return {
            "type": "reserve",
            "seat": event[1],
            "card": card,
            "name": card_name(card),
            "blind": False,
        }
    if event[0] == "reserve_blind":
        out: BlindReserveLine = {
            "type": "reserve",
            "seat": event[1],
            "tier": event[2],
            "blind": True,
        }
        if over or seat == event[1]:
            out["card"] = event[3]
            out["name"] = card_name(event[3])
        return out
    if event[0] == "buy":
        paid = {TOKEN_NAMES[i]: n for i, n in enumerate(event[3:]) if n}
        card = event[2]
        return {
            "type": "buy",
            "seat": event[1],
            "card": card,
            "name": card_name(card),
            "paid": paid,
        }
    if event[0] == "return":
        back = {TOKEN_NAMES[i]: n for i, n in enumerate(event[2:]) if n}
        return {"type": "return", "seat": event[1], "ingredients": back}
    if event[0] == "customer":
        customer = event[2]
        return {
            "type": "customer",
            "seat": event[1],
            "customer": customer,
            "name": customer_name(customer),
        }
    if event[0] == "over":
        return {"type": "over", "why": event[1]}
    return {"type": event[0], "seat": event[1]}


def customer_view(c: int) -> CustomerView:
    """A famous customer as the players see it."""
    customer = CUSTOMERS[c]
    wants = {INGREDIENTS[i]: n for i, n in enumerate(customer.wants) if n}
    return {"id": customer.id, "name": customer.name, "wants": wants}


def rules() -> Rules:
    """The numbers and names of the rules a board shows (a fresh copy for each view)."""
    return {
        "ingredients": list(INGREDIENTS),
        "wild": TOKEN_NAMES[SAFFRON],
        "hand_limit": HAND_LIMIT,
        "reserve_limit": RESERVE_LIMIT,
        "two_alike_min": TWO_ALIKE_MIN,
        "winning_points": WINNING_POINTS,
        "customer_points": CUSTOMER_POINTS,
        "tier_names": {str(tier): name for tier, name in TIER_NAMES.items()},
    }


def short_of(state: State, baker: Baker) -> dict[str, int]:
    """Per card on the counter or reserved: the ingredients the baker still lacks after Saffron."""
    power = buying_power(baker)
    cards = [c for row in state.counter for c in row if c != EMPTY]
    cards += [c for c, _ in baker.reserved]
    return {CARDS[c].id: max(0, shortfall(c, power) - baker.tokens[SAFFRON]) for c in cards}


def view(state: State, seat: int | None) -> View:
    """JSON-ready; exactly what that seat may see; None is a spectator."""
    over = state.over
    seats: list[SeatView] = []
    for s, b in enumerate(state.bakers):
        shown = over or s == seat
        seats.append(
            {
                "name": f"Baker {s + 1}",
                "ingredients": dict(zip(TOKEN_NAMES, b.tokens, strict=True)),
                "discounts": dict(zip(INGREDIENTS, b.discounts, strict=True)),
                "points": b.points,
                "cards_bought": len(b.bought),
                "cards": [card_view(c) for c in b.bought],
                "reserved": [_reserved_view(c, blind, shown) for c, blind in b.reserved],
                "customers": [CUSTOMERS[c].id for c in b.customers],
                "customer_names": [CUSTOMERS[c].name for c in b.customers],
            }
        )
        if s == seat:
            seats[-1]["short"] = short_of(state, b)
    return {
        "game": "cakehalla",
        "players": state.players,
        "you": seat,
        "turn": None if over else state.turn,
        "round": state.round,
        "turns_done": state.turns_done,
        "pending": state.pending,
        "final": state.final,
        "passes": state.passes,
        "market": dict(zip(TOKEN_NAMES, state.market, strict=True)),
        "counter": {
            str(t + 1): [None if c == EMPTY else card_view(c) for c in row]
            for t, row in enumerate(state.counter)
        },
        "piles": {str(t + 1): len(pile) for t, pile in enumerate(state.piles)},
        "customers": [customer_view(c) for c in state.customers],
        "seats": seats,
        "log": [_event_view(e, seat, over) for e in log_events(state.log)],
        "over": over,
        "winners": winners(state) if over else None,
        "result": result(state) if over else None,
        "rules": rules(),
    }
