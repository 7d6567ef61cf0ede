"""What one seat may see of a night, and what a spectator may see."""

from games.engines.midnight_bakery.cards import BATCH_SIZE, FACE_NAMES, face_of, seat_name
from games.engines.midnight_bakery.night import direction, night_result
from games.engines.midnight_bakery.pick import active_seats, can_peel
from games.engines.midnight_bakery.shapes import BatchCard, CaseCard, SeatView, View
from games.engines.midnight_bakery.state import State, copy_event


def card_view(card: str, glazed: frozenset[str] = frozenset()) -> CaseCard:
    """A public card: id, face, its name in words, and whether it is glazed."""
    face = face_of(card)
    return {"id": card, "face": face, "name": FACE_NAMES[face], "glazed": card in glazed}


def seat_view(state: State, seat: int) -> SeatView:
    """One seat's public box: batch size, lock, case, waiting glazes, truffle box, banked points."""
    owl = seat == state.bakers
    return {
        "seat": seat,
        "name": seat_name(seat, state.bakers),
        "owl": owl,
        "batch_count": len(state.batches[seat]),
        "locked": (not owl) and state.locks[seat] is not None,
        "case": [card_view(card, state.glazed[seat]) for card in state.cases[seat]],
        "waiting_glazes": len(state.waiting[seat]),
        "truffles": len(state.truffles[seat]),
        "banked": 0 if owl else state.banked[seat],
    }


def view(state: State, seat: int | None) -> View:
    """Exactly what this seat (or a spectator, for None) may see now."""
    mine = seat if isinstance(seat, int) and 0 <= seat < state.bakers else None
    batch: list[BatchCard] = []
    if mine is not None:
        locked = state.locks[mine] or ()
        for card in state.batches[mine]:
            shown: BatchCard = {
                "id": card,
                "face": face_of(card),
                "name": FACE_NAMES[face_of(card)],
            }
            if card in locked:
                shown["locked"] = True
            batch.append(shown)
    active = active_seats(state)
    return {
        "game": "midnight-bakery",
        "seat": mine,
        "bakers": state.bakers,
        "bake": state.bake,
        "pick": state.pick,
        "batch_size": BATCH_SIZE[state.bakers],
        "passing": state.passing,
        "direction": "next" if direction(state) == 1 else "previous",
        "deck_count": len(state.deck),
        "over": state.over,
        "batch": batch,
        "can_peel": mine is not None and mine in active and can_peel(state, mine),
        "my_turn": mine is not None and mine in active,
        "waiting_for": active,
        "seats": [seat_view(state, s) for s in range(state.seats)],
        "bakes": [[row.copy() for row in rows] for rows in state.bakes],
        "log": [copy_event(event) for event in state.log],
        "result": night_result(state) if state.over else None,
    }
