"""The state of a night: plain immutable pieces, copied shallowly on every action."""

from collections.abc import Mapping
from typing import cast

from games.engines.midnight_bakery.shapes import BakeRow, Event, StateData

Cards = tuple[str, ...]
Lock = tuple[str, ...] | None

PASSING_OPTIONS = ("alternate", "next")


class State:
    """One moment of a night; never changed in place once an action has returned it."""

    __slots__ = (
        "bakers",
        "owl",
        "passing",
        "rng",
        "deck",
        "bake",
        "pick",
        "batches",
        "locks",
        "cases",
        "glazed",
        "waiting",
        "truffles",
        "banked",
        "bakes",
        "discard",
        "log",
        "over",
    )

    bakers: int
    owl: bool
    passing: str
    rng: int
    deck: Cards
    bake: int
    pick: int
    batches: tuple[Cards, ...]
    locks: tuple[Lock, ...]
    cases: tuple[Cards, ...]
    glazed: tuple[frozenset[str], ...]
    waiting: tuple[Cards, ...]
    truffles: tuple[Cards, ...]
    banked: tuple[int, ...]
    bakes: tuple[tuple[BakeRow, ...], ...]
    discard: Cards
    log: tuple[Event, ...]
    over: bool

    def clone(self) -> "State":
        """A shallow copy; every field holds immutable data, so sharing is safe."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    @property
    def seats(self) -> int:
        """Seats in the ring: the bakers, plus the owl at two."""
        return self.bakers + 1 if self.owl else self.bakers

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and dump(self) == dump(other)

    __hash__ = None  # type: ignore[assignment]


def copy_event(event: Event) -> Event:
    """A log event that shares nothing with the one given (its lists of cards, faces, totals).

    Copied whole, then its lists: every load, dump and view copies the night's whole log, and
    this is a third cheaper than building the dict key by key."""
    copied = event.copy()
    if "cards" in event:
        copied["cards"] = event["cards"][:]
    if "faces" in event:
        copied["faces"] = event["faces"][:]
    if "totals" in event:
        copied["totals"] = event["totals"][:]
    return copied


def dump(state: State) -> StateData:
    """The state as JSON-ready data; ``load`` turns it back exactly."""
    return {
        "game": "midnight-bakery",
        "bakers": state.bakers,
        "owl": state.owl,
        "passing": state.passing,
        "rng": state.rng,
        "deck": list(state.deck),
        "bake": state.bake,
        "pick": state.pick,
        "batches": [list(b) for b in state.batches],
        "locks": [None if lock is None else list(lock) for lock in state.locks],
        "cases": [list(c) for c in state.cases],
        "glazed": [sorted(g) for g in state.glazed],
        "waiting": [list(w) for w in state.waiting],
        "truffles": [list(t) for t in state.truffles],
        "banked": list(state.banked),
        "bakes": [[row.copy() for row in rows] for rows in state.bakes],
        "discard": list(state.discard),
        "log": [copy_event(event) for event in state.log],
        "over": state.over,
    }


def load(data: Mapping[str, object]) -> State:
    """The state that ``dump`` wrote (read back from JSON)."""
    snapshot = cast(StateData, data)
    state = State.__new__(State)
    state.bakers = int(snapshot["bakers"])
    state.owl = bool(snapshot["owl"])
    state.passing = str(snapshot["passing"])
    state.rng = int(snapshot["rng"])
    state.deck = tuple(snapshot["deck"])
    state.bake = int(snapshot["bake"])
    state.pick = int(snapshot["pick"])
    state.batches = tuple(tuple(b) for b in snapshot["batches"])
    state.locks = tuple(None if lock is None else tuple(lock) for lock in snapshot["locks"])
    state.cases = tuple(tuple(c) for c in snapshot["cases"])
    state.glazed = tuple(frozenset(g) for g in snapshot["glazed"])
    state.waiting = tuple(tuple(w) for w in snapshot["waiting"])
    state.truffles = tuple(tuple(t) for t in snapshot["truffles"])
    state.banked = tuple(int(b) for b in snapshot["banked"])
    state.bakes = tuple(tuple(row.copy() for row in rows) for rows in snapshot["bakes"])
    state.discard = tuple(snapshot["discard"])
    state.log = tuple(copy_event(event) for event in snapshot["log"])
    state.over = bool(snapshot["over"])
    return state
