"""The shapes of the plain data a Cakehalla table hands out and takes back: setups, actions,
views (cards, customers, seats, log lines, the rules), results and the JSON snapshot `dump`
writes.

Each is a TypedDict over plain dicts and lists, so every value stays JSON-ready as it is. What a
caller hands in (options, a setup, an action) is typed as any mapping where it is taken: the
engine checks it and refuses anything malformed with IllegalAction. The actions are final:
an action with any other field is refused.
"""

from typing import Literal, NotRequired, TypedDict, final


class BakerSetup(TypedDict, total=False):
    """One baker's starting holdings: ingredients by name, bought cards, face-up reserved cards."""

    tokens: dict[str, int]
    bought: list[str]
    reserved: list[str]


class Setup(TypedDict, total=False):
    """A table dealt in advance (`deal` writes both): piles by tier ("1" to "3"), each top
    first, and the face-up customers. A key left out is dealt from the seed. `bakers` (never
    dealt, a tutorial's) starts the table part way: each seat's holdings."""

    piles: dict[str, list[str]]
    customers: list[str]
    bakers: list[BakerSetup]


@final
class TakeAction(TypedDict):
    """Take different ingredients (three, or fewer when fewer kinds are left), or two alike."""

    type: Literal["take"]
    ingredients: list[str]


@final
class ReserveCardAction(TypedDict):
    """Reserve a face-up card."""

    type: Literal["reserve"]
    card: str


@final
class ReserveTierAction(TypedDict):
    """Reserve the top card of a pile, unseen."""

    type: Literal["reserve"]
    tier: int


@final
class BuyAction(TypedDict):
    """Buy a face-up or reserved card."""

    type: Literal["buy"]
    card: str


@final
class ReturnAction(TypedDict):
    """Put back ingredients down to the hand limit: a count per ingredient."""

    type: Literal["return"]
    ingredients: dict[str, int]


@final
class CustomerAction(TypedDict):
    """Choose which of several qualifying customers visits."""

    type: Literal["customer"]
    customer: str


@final
class PassAction(TypedDict):
    """Pass, when nothing else is allowed."""

    type: Literal["pass"]


Action = (
    TakeAction
    | ReserveCardAction
    | ReserveTierAction
    | BuyAction
    | ReturnAction
    | CustomerAction
    | PassAction
)


class CardView(TypedDict):
    """A card as the players see it; cost is a count per ingredient."""

    id: str
    name: str
    tier: int
    points: int
    discount: str
    cost: dict[str, int]


class ReservedCardView(CardView):
    """A reserved card its viewer may see, and whether it was reserved blind."""

    blind: bool


class HiddenCardView(TypedDict):
    """A rival's blind reservation: only its tier."""

    tier: int
    hidden: Literal[True]


class CustomerView(TypedDict):
    """A famous customer: the discounts it wants, per ingredient."""

    id: str
    name: str
    wants: dict[str, int]


class SeatView(TypedDict):
    """One baker's bakery as the viewer may see it; `short` only on the viewer's own seat."""

    name: str
    ingredients: dict[str, int]
    discounts: dict[str, int]
    points: int
    cards_bought: int
    cards: list[CardView]
    reserved: list[ReservedCardView | HiddenCardView]
    customers: list[str]
    customer_names: list[str]
    short: NotRequired[dict[str, int]]


class TakeLine(TypedDict):
    """A log line: a baker took ingredients."""

    type: Literal["take"]
    seat: int
    ingredients: list[str]


class ReserveLine(TypedDict):
    """A log line: a baker reserved a face-up card."""

    type: Literal["reserve"]
    seat: int
    card: str
    name: str
    blind: bool


class BlindReserveLine(TypedDict):
    """A log line: a baker reserved the top of a pile (the card named to its owner and at the
    end only)."""

    type: Literal["reserve"]
    seat: int
    tier: int
    blind: bool
    card: NotRequired[str]
    name: NotRequired[str]


class BuyLine(TypedDict):
    """A log line: a baker bought a card, paying these ingredients."""

    type: Literal["buy"]
    seat: int
    card: str
    name: str
    paid: dict[str, int]


class ReturnLine(TypedDict):
    """A log line: a baker put ingredients back."""

    type: Literal["return"]
    seat: int
    ingredients: dict[str, int]


class CustomerLine(TypedDict):
    """A log line: a customer visited a baker."""

    type: Literal["customer"]
    seat: int
    customer: str
    name: str


class OverLine(TypedDict):
    """A log line: the game ended, for "points" or "passes"."""

    type: Literal["over"]
    why: str


class SeatLine(TypedDict):
    """A log line of a seat alone: "pass", or "final" (the last round begins)."""

    type: str
    seat: int


LogLine = (
    TakeLine
    | ReserveLine
    | BlindReserveLine
    | BuyLine
    | ReturnLine
    | CustomerLine
    | OverLine
    | SeatLine
)


class Rules(TypedDict):
    """The numbers and names of the rules a board shows."""

    ingredients: list[str]
    wild: str
    hand_limit: int
    reserve_limit: int
    two_alike_min: int
    winning_points: int
    customer_points: int
    tier_names: dict[str, str]


class Result(TypedDict):
    """Final standings by seat, the winners, the seats best first, the seats that lost the tie on
    cards bought, and why the game ended ("points" or "passes")."""

    scores: list[int]
    cards_bought: list[int]
    winners: list[int]
    order: list[int]
    lost_tie: list[int]
    ended: str


class View(TypedDict):
    """What one seat (`you`; None for a spectator) may see of the table."""

    game: str
    players: int
    you: int | None
    turn: int | None
    round: int
    turns_done: int
    pending: str | None
    final: bool
    passes: int
    market: dict[str, int]
    counter: dict[str, list[CardView | None]]
    piles: dict[str, int]
    customers: list[CustomerView]
    seats: list[SeatView]
    log: list[LogLine]
    over: bool
    winners: list[int] | None
    result: Result | None
    rules: Rules


class BakerData(TypedDict):
    """One baker in a snapshot; each reservation is [card id, reserved blind]."""

    tokens: list[int]
    discounts: list[int]
    points: int
    bought: list[str]
    reserved: list[list[str | bool]]
    customers: list[str]


class StateData(TypedDict):
    """A whole table as JSON (`dump`, server side only: it holds the piles), read back by `load`.
    Market and tokens hold the five ingredients then saffron; counter spaces left empty are null;
    each log event is a list, its kind first."""

    game: str
    players: int
    rng: int
    market: list[int]
    piles: list[list[str]]
    counter: list[list[str | None]]
    customers: list[str]
    bakers: list[BakerData]
    turn: int
    round: int
    turns_done: int
    pending: str | None
    final: bool
    passes: int
    over: bool
    log: list[list[str | int]]
