"""The Cakehalla state: immutable plain data and its JSON round trip (a new game from a seed or a
setup is setup.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple, TypeVar, cast

from games.engines.cakehalla.cards import (
    CARD_INDEX,
    CARDS,
    CUSTOMER_INDEX,
    CUSTOMERS,
)
from games.engines.cakehalla.refusals import refused
from games.engines.cakehalla.shapes import StateData

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
        raise refused("save-damaged") from exc
    return state
