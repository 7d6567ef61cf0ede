"""A pick: who may choose, what they may lock, and the reveal once the last baker locks."""

from collections.abc import Mapping

from games.engines.midnight_bakery.cards import FACE_NAMES, PEEL, face_of, seat_name
from games.engines.midnight_bakery.filing import file_cards, oldest_peel
from games.engines.midnight_bakery.night import (
    event,
    owl_snatch,
    pass_batches,
    replace_at,
    settle,
)
from games.engines.midnight_bakery.refusals import refused
from games.engines.midnight_bakery.shapes import Action
from games.engines.midnight_bakery.state import State

ACTION_KEYS = {"keep": {"type", "card"}, "peel": {"type", "cards"}}


def active_seats(state: State) -> list[int]:
    """Bakers holding cards who have not locked this pick; none once the night is over."""
    if state.over:
        return []
    batches, locks = state.batches, state.locks
    return [seat for seat in range(state.bakers) if batches[seat] and locks[seat] is None]


def has_peel(state: State, seat: int) -> bool:
    """Whether a Peel already sits in this baker's case."""
    return any(face_of(card) == PEEL for card in state.cases[seat])


def can_peel(state: State, seat: int) -> bool:
    """A Peel may be used: one in the case and at least two cards in the batch."""
    return len(state.batches[seat]) >= 2 and has_peel(state, seat)


def legal_actions(state: State, seat: int | None) -> list[Action]:
    """Keep any card of the batch; with a Peel, any two cards (each pair listed once)."""
    if state.over or isinstance(seat, bool) or not isinstance(seat, int):
        return []
    if not 0 <= seat < state.bakers:
        return []
    batch = state.batches[seat]
    if not batch or state.locks[seat] is not None:
        return []
    actions: list[Action] = [{"type": "keep", "card": card} for card in batch]
    if len(batch) >= 2 and has_peel(state, seat):
        actions += [
            {"type": "peel", "cards": [first, second]}
            for i, first in enumerate(batch)
            for second in batch[i + 1 :]
        ]
    return actions


def checked_choice(state: State, seat: int, action: object) -> tuple[str, ...]:
    """The cards an action locks, or IllegalAction with the reason."""
    if state.over:
        raise refused("night-over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.bakers:
        raise refused("no-baker-in-seat")
    if not isinstance(action, dict):
        raise refused("action-not-object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise refused("keep-or-peel")
    if set(action) != ACTION_KEYS[kind]:
        raise refused("action-fields", kind=kind, fields=sorted(ACTION_KEYS[kind]))
    batch = state.batches[seat]
    if not batch:
        raise refused("batch-empty")
    if state.locks[seat] is not None:
        raise refused("already-locked")
    if kind == "keep":
        card = action["card"]
        if not isinstance(card, str) or card not in batch:
            raise refused("card-not-in-batch")
        return (card,)
    cards = action["cards"]
    if not isinstance(cards, list) or len(cards) != 2:
        raise refused("peel-two")
    first, second = cards
    if not isinstance(first, str) or not isinstance(second, str) or first == second:
        raise refused("peel-different")
    if first not in batch or second not in batch:
        raise refused("peel-from-batch")
    if not has_peel(state, seat):
        raise refused("no-peel")
    return (first, second)


def apply_action(state: State, seat: int, action: Mapping[str, object]) -> State:
    """Lock a baker's choice; when the last one locks, reveal, let the owl snatch, and pass."""
    choice = checked_choice(state, seat, action)
    new = state.clone()
    new.locks = replace_at(new.locks, seat, choice)
    if not active_seats(new):
        reveal(new)
    return new


def reveal(state: State) -> None:
    """File every locked choice together, then the owl snatches and the batches pass."""
    for seat, choice in enumerate(state.locks):
        if choice is None:
            continue
        batch = tuple(card for card in state.batches[seat] if card not in choice)
        state.batches = replace_at(state.batches, seat, batch)
        case = state.cases[seat]
        if len(choice) == 2:
            spent = oldest_peel(case)
            case = tuple(card for card in case if card != spent)
            state.discard = (*state.discard, spent) if spent else state.discard
        filed = file_cards(
            case, state.glazed[seat], state.waiting[seat], state.truffles[seat], choice
        )
        state.cases = replace_at(state.cases, seat, filed[0])
        state.glazed = replace_at(state.glazed, seat, filed[1])
        state.waiting = replace_at(state.waiting, seat, filed[2])
        state.truffles = replace_at(state.truffles, seat, filed[3])
        faces = [face_of(card) for card in choice]
        names = " and ".join(f"a {FACE_NAMES[face]}" for face in faces)
        verb = "used a Baker's Peel to take" if len(choice) == 2 else "kept"
        event(
            state,
            "keep",
            f"{seat_name(seat, state.bakers)} {verb} {names}.",
            seat=seat,
            cards=list(choice),
            faces=faces,
            peel=len(choice) == 2,
        )
    state.locks = tuple(None for _ in state.locks)
    if state.owl:
        owl_snatch(state)
    pass_batches(state)
    settle(state)
