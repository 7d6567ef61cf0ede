"""The night's frame: starting it, dealing each bake, passing, the owl, ending bakes and dawn."""

from collections.abc import Mapping
from typing import TypeVar, Unpack

from games.engines.midnight_bakery import scoring
from games.engines.midnight_bakery.cards import (
    BATCH_SIZE,
    FACE_NAMES,
    OWL_NAME,
    face_of,
    seat_name,
)
from games.engines.midnight_bakery.filing import file_cards
from games.engines.midnight_bakery.refusals import refused
from games.engines.midnight_bakery.setup import (
    checked_bakers,
    checked_passing,
    checked_setup,
    shuffled_deck,
)
from games.engines.midnight_bakery.shapes import EventDetails, Result
from games.engines.midnight_bakery.state import Cards, State
from games.engines.rng import checked_seed, randbelow

T = TypeVar("T")

BAKES = 3


def new_game(
    players: int,
    *,
    seed: int,
    options: Mapping[str, object] | None = None,
    setup: Mapping[str, object] | None = None,
) -> State:
    """A night ready for its first pick: deck shuffled from the seed (or given), bake 1 dealt."""
    checked_bakers(players)
    seed = checked_seed(seed)
    passing = checked_passing(options)
    given = checked_setup(setup, seed)
    deck, rng = given if given is not None else shuffled_deck(players, seed)
    owl = players == 2
    seats = players + 1 if owl else players
    state = State.__new__(State)
    state.bakers = players
    state.owl = owl
    state.passing = passing
    state.rng = rng
    state.deck = tuple(deck)
    state.bake = 1
    state.pick = 1
    state.batches = tuple(() for _ in range(seats))
    state.locks = tuple(None for _ in range(players))
    state.cases = tuple(() for _ in range(seats))
    state.glazed = tuple(frozenset() for _ in range(seats))
    state.waiting = tuple(() for _ in range(seats))
    state.truffles = tuple(() for _ in range(seats))
    state.banked = tuple(0 for _ in range(players))
    state.bakes = ()
    state.discard = ()
    state.log = ()
    state.over = False
    start_bake(state, 1)
    return state


def event(state: State, kind: str, text: str, **data: Unpack[EventDetails]) -> None:
    """Append a public event to the log (the state is a fresh copy being built)."""
    state.log = (
        *state.log,
        {"type": kind, "bake": state.bake, "pick": state.pick, "text": text, **data},
    )


def start_bake(state: State, number: int) -> None:
    """Deal bake ``number`` in seat order, owl last; with nothing to deal, dawn comes early."""
    size = BATCH_SIZE[state.bakers]
    deck = state.deck
    batches = []
    for _ in range(state.seats):
        batches.append(deck[:size])
        deck = deck[size:]
    if not any(batches):
        event(state, "early_end", "The deck cannot deal anyone a card, so the night ends.")
        dawn(state)
        return
    state.bake = number
    state.deck = deck
    state.batches = tuple(batches)
    state.pick = 1
    event(state, "deal", f"Bake {state.bake} is dealt; {len(deck)} cards wait in the deck.")
    settle(state)


def direction(state: State) -> int:
    """+1 to pass to the next seat, -1 to the previous one."""
    if state.passing == "alternate" and state.bake == 2:
        return -1
    return 1


def pass_batches(state: State) -> None:
    """Every batch moves one seat along the ring."""
    ring = state.seats
    step = direction(state)
    moved: list[Cards] = [()] * ring
    for seat, batch in enumerate(state.batches):
        moved[(seat + step) % ring] = batch
    state.batches = tuple(moved)
    state.pick += 1


def owl_snatch(state: State) -> None:
    """The owl keeps one card of its batch, drawn from the night's stream, in the open."""
    owl = state.bakers
    batch = state.batches[owl]
    if not batch:
        return
    index, state.rng = randbelow(len(batch), state.rng)
    card = batch[index]
    state.batches = replace_at(state.batches, owl, batch[:index] + batch[index + 1 :])
    filed = file_cards(
        state.cases[owl], state.glazed[owl], state.waiting[owl], state.truffles[owl], (card,)
    )
    state.cases = replace_at(state.cases, owl, filed[0])
    state.glazed = replace_at(state.glazed, owl, filed[1])
    state.waiting = replace_at(state.waiting, owl, filed[2])
    state.truffles = replace_at(state.truffles, owl, filed[3])
    face = face_of(card)
    event(
        state,
        "snatch",
        f"The {OWL_NAME} snatched a {FACE_NAMES[face]}.",
        seat=owl,
        card=card,
        face=face,
    )


def settle(state: State) -> None:
    """Run what needs no baker: the owl alone with cards, the end of a bake, dawn."""
    while not state.over:
        held = [bool(batch) for batch in state.batches]
        if any(held[: state.bakers]):
            return
        if not any(held):
            end_bake(state)
            return
        owl_snatch(state)
        pass_batches(state)


def end_bake(state: State) -> None:
    """Score the cases, bank the points, discard the cases (truffles stay), deal the next bake."""
    rows = scoring.bake_breakdowns(state.cases, state.glazed, state.bakers, state.banked)
    state.bakes = (*state.bakes, tuple(rows))
    state.banked = tuple(row["running"] for row in rows)
    state.discard = state.discard + tuple(card for case in state.cases for card in case)
    seats = state.seats
    state.cases = tuple(() for _ in range(seats))
    state.glazed = tuple(frozenset() for _ in range(seats))
    state.waiting = tuple(() for _ in range(seats))
    state.locks = tuple(None for _ in range(state.bakers))
    summary = ", ".join(
        f"{seat_name(seat, state.bakers)} {row['total']}" for seat, row in enumerate(rows)
    )
    event(
        state,
        "bake_end",
        f"Bake {state.bake} is scored: {summary}.",
        totals=[r["total"] for r in rows],
    )
    if state.bake >= BAKES:
        dawn(state)
        return
    start_bake(state, state.bake + 1)


def dawn(state: State) -> None:
    """The truffle boxes open; the night is over."""
    state.over = True
    final = night_result(state)
    names = " and ".join(seat_name(seat, state.bakers) for seat in final["winners"])
    event(
        state,
        "dawn",
        f"Dawn. {names} {'wins' if len(final['winners']) == 1 else 'share'} the night.",
    )


def truffle_counts(state: State) -> tuple[list[int], int | None]:
    """Truffles in each baker's box, and the owl's (None without an owl)."""
    counts = [len(box) for box in state.truffles[: state.bakers]]
    owl = len(state.truffles[state.bakers]) if state.owl else None
    return counts, owl


def night_result(state: State) -> Result:
    """Final standings: banked points plus the truffle bonus, and the winners."""
    counts, owl = truffle_counts(state)
    bonus = scoring.truffle_bonus(counts, owl)
    scores = [banked + extra for banked, extra in zip(state.banked, bonus, strict=True)]
    return {
        "scores": scores,
        "truffles": counts,
        "truffle_bonus": bonus,
        "winners": scoring.winners(scores, counts),
        "bakes": [[row.copy() for row in rows] for rows in state.bakes],
        "banked": list(state.banked),
        "owl_truffles": owl,
        "owl_denied": scoring.owl_denies(counts, owl),
    }


def is_over(state: State) -> bool:
    """Whether dawn has come."""
    return state.over


def result(state: State) -> Result:
    """Final standings; only after dawn."""
    if not state.over:
        raise refused("night-not-over")
    return night_result(state)


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of a tuple with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])
