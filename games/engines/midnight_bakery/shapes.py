"""The shapes of the plain data a night hands out and takes back: setups, actions, log events,
bake breakdowns, results, views and the JSON snapshot `dump` writes.

Each is a TypedDict over plain dicts and lists, so every value stays JSON-ready as it is. What a
caller hands in (options, a setup, an action) is typed as any mapping where it is taken: the
engine checks it and refuses anything malformed with IllegalAction. The actions are final:
an action with any other field is refused.
"""

from typing import Literal, NotRequired, TypedDict, final


class Setup(TypedDict):
    """A night dealt in advance (`deal` writes one): the whole deck top first, as faces or card
    ids, and the owl's stream (else the seed's)."""

    deck: list[str]
    rng: NotRequired[int]


@final
class KeepAction(TypedDict):
    """Keep one card of the batch."""

    type: Literal["keep"]
    card: str


@final
class PeelAction(TypedDict):
    """Spend the case's oldest Peel to keep two cards of the batch (filed in that order)."""

    type: Literal["peel"]
    cards: list[str]


Action = KeepAction | PeelAction


class BakeScore(TypedDict):
    """A case's croissant, macaron, bun and tart points (tarts with their glazes)."""

    croissant: int
    macaron: int
    bun: int
    tart: int


class BakeRow(BakeScore):
    """One baker's breakdown of a finished bake: the case's points, the baguette ranking's,
    the loaves it ranked with, the bake's total and the night's running total after it."""

    baguette: int
    loaves: int
    total: int
    running: int


class EventDetails(TypedDict, total=False):
    """What some events add: whose ("snatch", "keep"), which cards, and a bake's totals."""

    seat: int
    card: str
    face: str
    cards: list[str]
    faces: list[str]
    peel: bool
    totals: list[int]


class Event(EventDetails):
    """A public log event: "deal", "keep", "snatch", "bake_end", "early_end" or "dawn"."""

    type: str
    bake: int
    pick: int
    text: str


class Result(TypedDict):
    """Final standings, lists indexed by baker seat; scores include the truffle bonus."""

    scores: list[int]
    truffles: list[int]
    truffle_bonus: list[int]
    winners: list[int]
    bakes: list[list[BakeRow]]
    banked: list[int]
    owl_truffles: int | None
    owl_denied: bool


class CaseCard(TypedDict):
    """A card filed in a case, as everyone sees it."""

    id: str
    face: str
    name: str
    glazed: bool


class BatchCard(TypedDict):
    """A card of the viewer's own batch; the card locked for this pick is marked."""

    id: str
    face: str
    name: str
    locked: NotRequired[Literal[True]]


class SeatView(TypedDict):
    """One seat's public box (the owl's too)."""

    seat: int
    name: str
    owl: bool
    batch_count: int
    locked: bool
    case: list[CaseCard]
    waiting_glazes: int
    truffles: int
    banked: int


class View(TypedDict):
    """What one seat (or a spectator, seat None) may see of a night."""

    game: str
    seat: int | None
    bakers: int
    bake: int
    pick: int
    batch_size: int
    passing: str
    direction: str
    deck_count: int
    over: bool
    batch: list[BatchCard]
    can_peel: bool
    my_turn: bool
    waiting_for: list[int]
    seats: list[SeatView]
    bakes: list[list[BakeRow]]
    log: list[Event]
    result: Result | None


class StateData(TypedDict):
    """A night as JSON (`dump`), read back exactly by `load`. Seat-indexed lists hold the owl's
    seat last at two (batches, cases, glazed, waiting, truffles); locks and banked are bakers'."""

    game: str
    bakers: int
    owl: bool
    passing: str
    rng: int
    deck: list[str]
    bake: int
    pick: int
    batches: list[list[str]]
    locks: list[list[str] | None]
    cases: list[list[str]]
    glazed: list[list[str]]
    waiting: list[list[str]]
    truffles: list[list[str]]
    banked: list[int]
    bakes: list[list[BakeRow]]
    discard: list[str]
    log: list[Event]
    over: bool
