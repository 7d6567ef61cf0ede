"""The Cakehalla state: immutable plain data, a new game from a seed, and the JSON round trip."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple, TypeVar, cast

from games.engines import rng
from games.engines.cakehalla.cards import (
    CARD_INDEX,
    CARDS,
    CUSTOMER_INDEX,
    CUSTOMERS,
    TIER_CARDS,
    TIERS,
    TOKEN_NAMES,
)
from games.engines.cakehalla.shapes import Setup, StateData
from games.engines.errors import IllegalAction

T = TypeVar("T")

MIN_BAKERS = 2
MAX_BAKERS = 4
HAND_LIMIT = 10
RESERVE_LIMIT = 3
WINNING_POINTS = 15
COUNTER_SPACES = 4
MARKET_SIZES = {2: 4, 3: 5, 4: 7}
SAFFRON_SUPPLY = 5
EMPTY = -1

# The log's events, as tuples of ids and numbers, kind first (a seat follows but in "over").
TakeEvent = tuple[Literal["take"], int, *tuple[str, ...]]  # the ingredients taken
ReserveEvent = tuple[Literal["reserve"], int, str]  # the card id
BlindReserveEvent = tuple[Literal["reserve_blind"], int, int, str]  # the tier, the card id
BuyEvent = tuple[Literal["buy"], int, str, *tuple[int, ...]]  # the card id, the six paid
ReturnEvent = tuple[Literal["return"], int, *tuple[int, ...]]  # the six put back
CustomerEvent = tuple[Literal["customer"], int, str]  # the customer id
SeatEvent = tuple[Literal["pass", "final"], int]
OverEvent = tuple[Literal["over"], str]  # why: "points" or "passes"
Event = (
    TakeEvent
    | ReserveEvent
    | BlindReserveEvent
    | BuyEvent
    | ReturnEvent
    | CustomerEvent
    | SeatEvent
    | OverEvent
)
Log = tuple[Event, "Log"] | None


class Baker(NamedTuple):
    """One baker's bakery: ingredients held (saffron last), discounts, points and cards."""

    tokens: tuple[int, ...]
    discounts: tuple[int, ...]
    points: int
    bought: tuple[int, ...]
    reserved: tuple[tuple[int, bool], ...]
    customers: tuple[int, ...]


class State:
    """A whole table; never changed in place: every action makes a new one sharing the rest."""

    __slots__ = (
        "bakers",
        "counter",
        "customers",
        "final",
        "log",
        "market",
        "over",
        "passes",
        "pending",
        "piles",
        "players",
        "rng",
        "round",
        "turn",
        "turns_done",
    )

    players: int
    rng: int
    market: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    counter: tuple[tuple[int, ...], ...]
    customers: tuple[int, ...]
    bakers: tuple[Baker, ...]
    turn: int
    round: int
    turns_done: int
    pending: str | None
    final: bool
    passes: int
    over: bool
    log: Log

    def clone(self) -> State:
        """A shallow copy to change before anyone else sees it."""
        new = State.__new__(State)
        new.players = self.players
        new.rng = self.rng
        new.market = self.market
        new.piles = self.piles
        new.counter = self.counter
        new.customers = self.customers
        new.bakers = self.bakers
        new.turn = self.turn
        new.round = self.round
        new.turns_done = self.turns_done
        new.pending = self.pending
        new.final = self.final
        new.passes = self.passes
        new.over = self.over
        new.log = self.log
        return new


def replaced(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """A copy of the tuple with item i replaced."""
    return (*items[:i], value, *items[i + 1 :])


def log_events(log: Log) -> list[Event]:
    """The log as a list, oldest first."""
    out = []
    while log is not None:
        out.append(log[0])
        log = log[1]
    out.reverse()
    return out


def _log_from(events: list[Event]) -> Log:
    """A log built from events, oldest first."""
    log: Log = None
    for event in events:
        log = (event, log)
    return log


def _card_indices(ids: object, not_a_list: str, tier: int | None = None) -> list[int]:
    """The card indices of a setup's list of card ids (of that tier, when one is given)."""
    if not isinstance(ids, list):
        raise IllegalAction(not_a_list)
    out = []
    for card_id in ids:
        index = CARD_INDEX.get(card_id) if isinstance(card_id, str) else None
        if index is None or (tier is not None and CARDS[index].tier != tier):
            kind = "a card" if tier is None else f"a tier {tier} card"
            raise IllegalAction(f"{card_id!r} is not {kind}.")
        out.append(index)
    return out


def _setup_pile(tier: int, ids: object) -> tuple[int, ...]:
    """A pile given by the setup, checked to hold cards of its own tier once each."""
    pile = _card_indices(ids, f"The tier {tier} pile must be a list of card ids.", tier)
    if len(set(pile)) != len(pile):
        raise IllegalAction(f"The tier {tier} pile holds a card twice.")
    return tuple(pile)


def _setup_customers(ids: object, wanted: int) -> tuple[int, ...]:
    """Face-up customers given by the setup."""
    if not isinstance(ids, list) or len(ids) != wanted:
        raise IllegalAction(f"The setup must show exactly {wanted} customers.")
    out = []
    for cid in ids:
        index = CUSTOMER_INDEX.get(cid) if isinstance(cid, str) else None
        if index is None:
            raise IllegalAction(f"{cid!r} is not a customer.")
        out.append(index)
    if len(set(out)) != len(out):
        raise IllegalAction("The setup shows a customer twice.")
    return tuple(out)


def checked_setup(setup: object) -> Mapping[str, object]:
    """A setup that gives piles, customers or bakers and nothing else; IllegalAction otherwise."""
    if setup is None:
        return {}
    if not isinstance(setup, dict):
        raise IllegalAction("The setup must be a dictionary.")
    if not setup:
        raise IllegalAction("A setup must give piles, customers or bakers; leave it out to deal.")
    if set(setup) - {"piles", "customers", "bakers"}:
        raise IllegalAction("The setup may only give piles, customers and bakers.")
    if "piles" in setup:
        given = setup["piles"]
        if not isinstance(given, dict) or not given or set(given) - {"1", "2", "3"}:
            raise IllegalAction('The setup piles must be keyed "1", "2" and "3".')
    return setup


def checked_options(options: object) -> None:
    """Cakehalla has no options: None or {} only."""
    if options is None:
        return
    if not isinstance(options, dict):
        raise IllegalAction("The options must be a dictionary of names and values.")
    if options:
        name = sorted(str(key) for key in options)[0]
        raise IllegalAction(f"Cakehalla has no option called {name!r}: it has no options yet.")


def checked_players(players: object) -> int:
    """The number of bakers, 2 to 4."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise IllegalAction("The number of bakers must be a whole number.")
    if not MIN_BAKERS <= players <= MAX_BAKERS:
        raise IllegalAction("Cakehalla is for 2 to 4 bakers.")
    return players


def _setup_tokens(given: object) -> tuple[int, ...]:
    """A baker's ingredients given by the setup ({name: count}), saffron last."""
    if not isinstance(given, dict):
        raise IllegalAction("A baker's tokens must map ingredients to counts.")
    tokens = [0] * len(TOKEN_NAMES)
    for name, n in given.items():
        if name not in TOKEN_NAMES or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise IllegalAction(f"{name!r}: {n!r} is not an ingredient and a count.")
        tokens[TOKEN_NAMES.index(name)] = n
    if sum(tokens) > HAND_LIMIT:
        raise IllegalAction(f"A baker starts with at most {HAND_LIMIT} ingredients.")
    return tuple(tokens)


def _setup_cards(ids: object, what: str) -> tuple[int, ...]:
    """A baker's bought or reserved cards given by the setup (card ids)."""
    return tuple(_card_indices(ids, f"A baker's {what} cards must be a list of card ids."))


def setup_bakers(players: int, setup: Mapping[str, object]) -> tuple[Baker, ...]:
    """The bakers' starting holdings: given (a game started part way, as a tutorial's), else
    empty. Discounts and points follow from the bought cards; reserved cards are face up."""
    if "bakers" not in setup:
        return (Baker((0,) * 6, (0,) * 5, 0, (), (), ()),) * players
    given = setup["bakers"]
    if not isinstance(given, list) or len(given) != players:
        raise IllegalAction(f"The setup must give exactly {players} bakers.")
    bakers = []
    for holding in given:
        if not isinstance(holding, dict) or set(holding) - {"tokens", "bought", "reserved"}:
            raise IllegalAction("A baker may only be given tokens, bought and reserved cards.")
        bought = _setup_cards(holding.get("bought", []), "bought")
        reserved = _setup_cards(holding.get("reserved", []), "reserved")
        if len(reserved) > RESERVE_LIMIT:
            raise IllegalAction(f"A baker reserves at most {RESERVE_LIMIT} cards.")
        discounts = [0] * 5
        for c in bought:
            discounts[CARDS[c].discount] += 1
        bakers.append(
            Baker(
                _setup_tokens(holding.get("tokens", {})),
                tuple(discounts),
                sum(CARDS[c].points for c in bought),
                bought,
                tuple((c, False) for c in reserved),
                (),
            )
        )
    held = [c for b in bakers for c in (*b.bought, *(r for r, _ in b.reserved))]
    if len(set(held)) != len(held):
        raise IllegalAction("The setup gives a card to the bakers twice.")
    if any(b.points >= WINNING_POINTS for b in bakers):
        raise IllegalAction(f"A baker must start below {WINNING_POINTS} points.")
    return tuple(bakers)


def dealt(
    players: int, seed: int, setup: Mapping[str, object], held: frozenset[int] = frozenset()
) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """The piles (top first, counter cards included) and customers: given, or from the seed
    (a shuffled pile leaves out the cards the bakers hold)."""
    given = setup.get("piles")  # checked_setup let only a dict keyed by tier through
    given_piles: Mapping[str, object] = given if isinstance(given, dict) else {}
    stream = rng.seed_state(seed)
    piles = []
    for tier in TIERS:
        if str(tier) in given_piles:
            piles.append(_setup_pile(tier, given_piles[str(tier)]))
        else:
            shuffled, stream = rng.shuffled(TIER_CARDS[tier], stream)
            piles.append(tuple(c for c in shuffled if c not in held))
    if "customers" in setup:
        customers = _setup_customers(setup["customers"], players + 1)
    else:
        drawn, stream = rng.shuffled(range(len(CUSTOMERS)), stream)
        customers = tuple(drawn[: players + 1])
    return piles, customers


# Which rules a game was played under: stored with every game at its start. Bump it with any
# change that plays a stored game differently (the golden games in tests/ say when).
RULES_VERSION = 1


def deal(players: int, *, seed: int, options: Mapping[str, object] | None = None) -> Setup:
    """The setup the seed deals: every pile whole, top first, and the face-up customers."""
    checked_players(players)
    checked_options(options)
    piles, customers = dealt(players, rng.checked_seed(seed), {})
    by_tier = zip(TIERS, piles, strict=True)
    return {
        "piles": {str(tier): [CARDS[c].id for c in pile] for tier, pile in by_tier},
        "customers": [CUSTOMERS[c].id for c in customers],
    }


def new_game(
    players: int,
    *,
    seed: int,
    options: Mapping[str, object] | None = None,
    setup: Mapping[str, object] | None = None,
) -> State:
    """A new table for 2 to 4 bakers, dealt from the seed unless the setup says otherwise."""
    checked_players(players)
    seed = rng.checked_seed(seed)
    checked_options(options)
    setup = checked_setup(setup)
    bakers = setup_bakers(players, setup)
    held = frozenset(c for b in bakers for c in (*b.bought, *(r for r, _ in b.reserved)))
    piles, customers = dealt(players, seed, setup, held)
    if held & {c for pile in piles for c in pile}:
        raise IllegalAction("A card the bakers hold is in a pile too.")

    counter = []
    for i, pile in enumerate(piles):
        face_up = pile[:COUNTER_SPACES]
        counter.append(face_up + (EMPTY,) * (COUNTER_SPACES - len(face_up)))
        piles[i] = pile[COUNTER_SPACES:]

    size = MARKET_SIZES[players]
    supply = (size, size, size, size, size, SAFFRON_SUPPLY)
    market = tuple(n - sum(b.tokens[i] for b in bakers) for i, n in enumerate(supply))
    if min(market) < 0:
        raise IllegalAction("The bakers hold more of an ingredient than the market has.")
    state = State.__new__(State)
    state.players = players
    state.rng = rng.seed_state(seed)  # the table's own stream; no rule draws from it yet
    state.market = market
    state.piles = tuple(piles)
    state.counter = tuple(counter)
    state.customers = customers
    state.bakers = bakers
    state.turn = 0
    state.round = 1
    state.turns_done = 0
    state.pending = None
    state.final = False
    state.passes = 0
    state.over = False
    state.log = None
    return state


def dump(state: State) -> StateData:
    """Everything in the state as JSON-ready data (server side only: it holds the piles)."""
    return {
        "game": "cakehalla",
        "players": state.players,
        "rng": state.rng,
        "market": list(state.market),
        "piles": [[CARDS[c].id for c in pile] for pile in state.piles],
        "counter": [[CARDS[c].id if c != EMPTY else None for c in row] for row in state.counter],
        "customers": [CUSTOMERS[c].id for c in state.customers],
        "bakers": [
            {
                "tokens": list(b.tokens),
                "discounts": list(b.discounts),
                "points": b.points,
                "bought": [CARDS[c].id for c in b.bought],
                "reserved": [[CARDS[c].id, blind] for c, blind in b.reserved],
                "customers": [CUSTOMERS[c].id for c in b.customers],
            }
            for b in state.bakers
        ],
        "turn": state.turn,
        "round": state.round,
        "turns_done": state.turns_done,
        "pending": state.pending,
        "final": state.final,
        "passes": state.passes,
        "over": state.over,
        "log": [list(event) for event in log_events(state.log)],
    }


def load(data: Mapping[str, object]) -> State:
    """The state a dump describes (read back from JSON)."""
    snapshot = cast(StateData, data)
    try:
        state = State.__new__(State)
        state.players = int(snapshot["players"])
        state.rng = int(snapshot["rng"])
        state.market = tuple(int(n) for n in snapshot["market"])
        state.piles = tuple(tuple(CARD_INDEX[c] for c in pile) for pile in snapshot["piles"])
        state.counter = tuple(
            tuple(CARD_INDEX[c] if c is not None else EMPTY for c in row)
            for row in snapshot["counter"]
        )
        state.customers = tuple(CUSTOMER_INDEX[c] for c in snapshot["customers"])
        state.bakers = tuple(
            Baker(
                tuple(int(n) for n in b["tokens"]),
                tuple(int(n) for n in b["discounts"]),
                int(b["points"]),
                tuple(CARD_INDEX[c] for c in b["bought"]),
                # each [card id, blind]: str() only types the id (a bad one stays a KeyError)
                tuple((CARD_INDEX[str(c)], bool(blind)) for c, blind in b["reserved"]),
                tuple(CUSTOMER_INDEX[c] for c in b["customers"]),
            )
            for b in snapshot["bakers"]
        )
        state.turn = int(snapshot["turn"])
        state.round = int(snapshot["round"])
        state.turns_done = int(snapshot["turns_done"])
        state.pending = snapshot["pending"]
        state.final = bool(snapshot["final"])
        state.passes = int(snapshot["passes"])
        state.over = bool(snapshot["over"])
        state.log = _log_from(cast(list[Event], [tuple(event) for event in snapshot["log"]]))
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalAction("That saved game is damaged and cannot be loaded.") from exc
    return state
