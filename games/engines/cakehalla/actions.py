"""A baker's actions applied: take, reserve, buy, pass, then put back and choose a customer (what
they may do now is legal.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from games.engines.cakehalla.cards import (
    CARD_INDEX,
    CARDS,
    CUSTOMER_INDEX,
    CUSTOMERS,
    INGREDIENTS,
    SAFFRON,
    TOKEN_INDEX,
    TOKEN_NAMES,
)
from games.engines.cakehalla.legal import (
    CARD_IDS,
    CARD_TIER0,
    COST_NZ,
    ORDINARY_INDEX,
    TWO_ALIKE_MIN,
    has_main_action,
)
from games.engines.cakehalla.refusals import refused
from games.engines.cakehalla.state import (
    EMPTY,
    HAND_LIMIT,
    RESERVE_LIMIT,
    Baker,
    BuyEvent,
    Event,
    ReturnEvent,
    State,
    TakeEvent,
    replaced,
)
from games.engines.cakehalla.turn import after_action, after_return, end_turn, visit
from games.engines.cakehalla.turn import visiting_customers as _visitors


def _name(i: int) -> str:
    """An ingredient's name for a sentence."""
    return TOKEN_NAMES[i].capitalize()


def _with_baker(state: State, seat: int, baker: Baker) -> tuple[Baker, ...]:
    """The bakers with one replaced."""
    return replaced(state.bakers, seat, baker)


def _take(state: State, seat: int, action: Mapping[str, object]) -> State:
    """Take three different ingredients (fewer when fewer kinds are left) or two alike."""
    names = action.get("ingredients")
    if type(names) is not list or len(action) != 2:
        raise refused("take-not-list")
    picks = []
    for name in names:
        i = ORDINARY_INDEX.get(name) if type(name) is str else None
        if i is None:
            if name == "saffron":
                raise refused("saffron-not-taken")
            raise refused("no-such-ingredient", name=repr(name))
        picks.append(i)
    m = state.market
    if len(picks) == 2 and picks[0] == picks[1]:
        i = picks[0]
        if m[i] < TWO_ALIKE_MIN:
            raise refused("two-alike-too-few", name=_name(i), least=TWO_ALIKE_MIN)
    else:
        if len(set(picks)) != len(picks):
            raise refused("take-not-alike")
        kinds = (m[0] > 0) + (m[1] > 0) + (m[2] > 0) + (m[3] > 0) + (m[4] > 0)
        if not kinds:
            raise refused("market-empty")
        for i in picks:
            if not m[i]:
                raise refused("market-out-of", name=_name(i))
        width = min(3, kinds)
        if len(picks) != width:
            if width == 3:
                raise refused("take-three")
            raise refused("kinds-left", kinds=kinds)
    market = list(m)
    b = state.bakers[seat]
    tokens = list(b.tokens)
    for i in picks:
        market[i] -= 1
        tokens[i] += 1
    new = state.clone()
    new.market = tuple(market)
    new.bakers = _with_baker(
        state, seat, Baker(tuple(tokens), b.discounts, b.points, b.bought, b.reserved, b.customers)
    )
    new.passes = 0
    taken: TakeEvent = ("take", seat, *(INGREDIENTS[i] for i in picks))
    new.log = (taken, state.log)
    return after_action(new)


def _card_of(action: Mapping[str, object], key: str = "card") -> int:
    """The card an action names."""
    card_id = action.get(key)
    c = CARD_INDEX.get(card_id) if type(card_id) is str else None
    if c is None:
        raise refused("no-such-card", card=repr(card_id))
    return c


def _reserve(state: State, seat: int, action: Mapping[str, object]) -> State:
    """Reserve a face-up card or the top of a pile, with a Saffron while any is left."""
    if len(action) != 2:
        raise refused("reserve-one")
    b = state.bakers[seat]
    if len(b.reserved) >= RESERVE_LIMIT:
        raise refused("reserve-full")
    piles = state.piles
    counter = state.counter
    if "card" in action:
        c = _card_of(action)
        t = CARD_TIER0[c]
        row = counter[t]
        if c not in row:
            raise refused("card-not-on-counter", card=CARDS[c].name)
        pile = piles[t]
        refill = pile[0] if pile else EMPTY
        pos = row.index(c)
        counter = replaced(counter, t, replaced(row, pos, refill))
        blind = False
        event: Event = ("reserve", seat, CARD_IDS[c])
    elif "tier" in action:
        tier = action["tier"]
        if type(tier) is not int or not 1 <= tier <= 3:
            raise refused("no-such-tier")
        t = tier - 1
        pile = piles[t]
        if not pile:
            raise refused("pile-empty", tier=tier)
        c = pile[0]
        blind = True
        event = ("reserve_blind", seat, tier, CARD_IDS[c])
    else:
        raise refused("reserve-one")
    if pile:
        piles = replaced(piles, t, pile[1:])
    new = state.clone()
    tokens = b.tokens
    if state.market[SAFFRON]:
        m = state.market
        new.market = (m[0], m[1], m[2], m[3], m[4], m[5] - 1)
        tokens = (tokens[0], tokens[1], tokens[2], tokens[3], tokens[4], tokens[5] + 1)
    new.piles = piles
    new.counter = counter
    new.bakers = _with_baker(
        state,
        seat,
        Baker(tokens, b.discounts, b.points, b.bought, (*b.reserved, (c, blind)), b.customers),
    )
    new.passes = 0
    new.log = (event, state.log)
    return after_action(new)


def _buy(state: State, seat: int, action: Mapping[str, object]) -> State:
    """Buy a face-up or reserved card; ordinary ingredients first, Saffron for the shortfall."""
    if len(action) != 2:
        raise refused("buy-one")
    c = _card_of(action)
    card = CARDS[c]
    b = state.bakers[seat]
    t = CARD_TIER0[c]
    row = state.counter[t]
    counter = state.counter
    piles = state.piles
    reserved = b.reserved
    if c in row:
        pile = piles[t]
        pos = row.index(c)
        if pile:
            counter = replaced(counter, t, replaced(row, pos, pile[0]))
            piles = replaced(piles, t, pile[1:])
        else:
            counter = replaced(counter, t, replaced(row, pos, EMPTY))
    else:
        kept = tuple(r for r in reserved if r[0] != c)
        if len(kept) == len(reserved):
            raise refused("buy-not-reachable")
        reserved = kept
    tokens = list(b.tokens)
    market = list(state.market)
    discounts = b.discounts
    short = 0
    paid = [0, 0, 0, 0, 0, 0]
    for i, n in COST_NZ[c]:
        price = n - discounts[i]
        if price <= 0:
            continue
        use = tokens[i] if tokens[i] < price else price
        short += price - use
        paid[i] = use
        tokens[i] -= use
        market[i] += use
    if short > tokens[SAFFRON]:
        raise refused("cannot-afford", card=card.name)
    paid[SAFFRON] = short
    tokens[SAFFRON] -= short
    market[SAFFRON] += short
    d = list(discounts)
    d[card.discount] += 1
    new = state.clone()
    new.market = tuple(market)
    new.counter = counter
    new.piles = piles
    new.bakers = _with_baker(
        state,
        seat,
        Baker(
            tuple(tokens),
            tuple(d),
            b.points + card.points,
            (*b.bought, c),
            reserved,
            b.customers,
        ),
    )
    new.passes = 0
    bought: BuyEvent = ("buy", seat, CARD_IDS[c], *paid)
    new.log = (bought, state.log)
    return after_action(new)


def _pass(state: State, seat: int, action: Mapping[str, object]) -> State:
    """Pass, allowed only when nothing else is."""
    if len(action) != 1:
        raise refused("pass-bare")
    if has_main_action(state, seat):
        raise refused("pass-not-allowed")
    new = state.clone()
    new.passes = state.passes + 1
    new.log = (("pass", seat), state.log)
    return after_action(new)


def _return(state: State, seat: int, action: Mapping[str, object]) -> State:
    """Put back ingredients of the baker's choice down to 10."""
    given = action.get("ingredients")
    if type(given) is not dict or len(action) != 2:
        raise refused("return-not-counts")
    b = state.bakers[seat]
    tokens = list(b.tokens)
    market = list(state.market)
    back = [0] * 6
    for name, n in given.items():
        i = TOKEN_INDEX.get(name) if type(name) is str else None
        if i is None:
            raise refused("no-such-ingredient", name=repr(name))
        if type(n) is not int or n < 0:
            raise refused("return-not-whole")
        if n > tokens[i]:
            raise refused("hold-only", n=tokens[i], name=_name(i))
        back[i] = n
    excess = sum(tokens) - HAND_LIMIT
    if sum(back) != excess:
        raise refused("return-exactly", excess=excess, limit=HAND_LIMIT)
    for i in range(6):
        tokens[i] -= back[i]
        market[i] += back[i]
    new = state.clone()
    new.market = tuple(market)
    new.bakers = _with_baker(
        state, seat, Baker(tuple(tokens), b.discounts, b.points, b.bought, b.reserved, b.customers)
    )
    returned: ReturnEvent = ("return", seat, *back)
    new.log = (returned, state.log)
    return after_return(new)


def _customer(state: State, seat: int, action: Mapping[str, object]) -> State:
    """Choose which of several qualifying customers visits."""
    if len(action) != 2:
        raise refused("customer-one")
    cid = action.get("customer")
    c = CUSTOMER_INDEX.get(cid) if type(cid) is str else None
    if c is None:
        raise refused("no-such-customer", customer=repr(cid))
    if c not in _visitors(state, seat):
        raise refused("customer-cannot-visit", customer=CUSTOMERS[c].name)
    new = state.clone()
    visit(new, c)
    return end_turn(new)


Handler = Callable[[State, int, Mapping[str, object]], State]
_MAIN: dict[object, Handler] = {"take": _take, "reserve": _reserve, "buy": _buy, "pass": _pass}


def apply_action(state: State, seat: int, action: Mapping[str, object]) -> State:
    """The state after the seat's action; the old state is untouched; IllegalAction otherwise."""
    if state.over:
        raise refused("game-over")
    if type(seat) is not int or seat != state.turn:
        raise refused("not-your-turn")
    if type(action) is not dict:
        raise refused("action-untyped")
    kind = action.get("type")
    pending = state.pending
    if pending is None:
        handler = _MAIN.get(kind) if type(kind) is str else None
        if handler is None:
            if kind == "return":
                raise refused("nothing-to-return")
            if kind == "customer":
                raise refused("no-customer-waiting")
            raise refused("no-such-action", kind=repr(kind))
        return handler(state, seat, action)
    if pending == "return":
        if kind != "return":
            raise refused("hold-over-limit", limit=HAND_LIMIT)
        return _return(state, seat, action)
    if kind != "customer":
        raise refused("choose-customer-first")
    return _customer(state, seat, action)
