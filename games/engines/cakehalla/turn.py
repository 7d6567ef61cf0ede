"""The end of a turn (putting back, customers visiting), the end of a round, and the winners."""

from __future__ import annotations

from games.engines.cakehalla.cards import CUSTOMER_POINTS, CUSTOMERS
from games.engines.cakehalla.refusals import refused
from games.engines.cakehalla.shapes import Result
from games.engines.cakehalla.state import HAND_LIMIT, WINNING_POINTS, Baker, State, replaced


def visiting_customers(state: State, seat: int) -> list[int]:
    """The face-up customers whose wants the baker's discounts meet."""
    discounts = state.bakers[seat].discounts
    out = []
    for c in state.customers:
        wants = CUSTOMERS[c].wants
        if (
            discounts[0] >= wants[0]
            and discounts[1] >= wants[1]
            and discounts[2] >= wants[2]
            and discounts[3] >= wants[3]
            and discounts[4] >= wants[4]
        ):
            out.append(c)
    return out


def after_action(state: State) -> State:
    """Run the end-of-turn steps after a main action on a fresh state (changed in place)."""
    if sum(state.bakers[state.turn].tokens) > HAND_LIMIT:
        state.pending = "return"
        return state
    return after_return(state)


def after_return(state: State) -> State:
    """The customer step, then the turn passes on, on a fresh state (changed in place)."""
    visitors = visiting_customers(state, state.turn)
    if len(visitors) > 1:
        state.pending = "customer"
        return state
    if visitors:
        visit(state, visitors[0])
    return end_turn(state)


def visit(state: State, customer: int) -> None:
    """The customer visits the baker whose turn it is, for 3 points (fresh state, in place)."""
    seat = state.turn
    b = state.bakers[seat]
    baker = Baker(
        b.tokens, b.discounts, b.points + CUSTOMER_POINTS, b.bought, b.reserved,
        (*b.customers, customer),
    )  # fmt: skip
    state.bakers = replaced(state.bakers, seat, baker)
    state.customers = tuple(c for c in state.customers if c != customer)
    state.log = (("customer", seat, CUSTOMERS[customer].id), state.log)


def end_turn(state: State) -> State:
    """Hand the turn on; the round someone reaches 15 is the last (fresh state, in place)."""
    seat = state.turn
    state.pending = None
    if not state.final and state.bakers[seat].points >= WINNING_POINTS:
        state.final = True
        state.log = (("final", seat), state.log)
    state.turns_done += 1
    if state.passes >= state.players:
        return finish(state, "passes")
    nxt = seat + 1
    if nxt == state.players:
        if state.final:
            return finish(state, "points")
        nxt = 0
        state.round += 1
    state.turn = nxt
    return state


def finish(state: State, why: str) -> State:
    """The game ends (fresh state, in place)."""
    state.over = True
    state.pending = None
    state.log = (("over", why), state.log)
    return state


def winners(state: State) -> list[int]:
    """Most points; a tie goes to fewer cards bought; a tie on both shares the win."""
    best = max((b.points, -len(b.bought)) for b in state.bakers)
    return [s for s, b in enumerate(state.bakers) if (b.points, -len(b.bought)) == best]


def standing_order(state: State) -> list[int]:
    """The seats best first: most points, then fewer cards bought, then seat order."""
    bakers = state.bakers
    return sorted(range(len(bakers)), key=lambda s: (-bakers[s].points, len(bakers[s].bought), s))


def lost_tie(state: State) -> list[int]:
    """The seats level on points with the winners that lost the tie on cards bought."""
    won = winners(state)
    top = state.bakers[won[0]].points
    return [s for s, b in enumerate(state.bakers) if b.points == top and s not in won]


def end_reason(state: State) -> str:
    """Why the game ended: "points" (a baker reached 15) or "passes" (a whole round passed)."""
    event = state.log[0] if state.log is not None else None
    return str(event[1]) if event is not None and event[0] == "over" else "points"


def result(state: State) -> Result:
    """Final standings, only once the game is over."""
    if not state.over:
        raise refused("game-not-over")
    return {
        "scores": [b.points for b in state.bakers],
        "cards_bought": [len(b.bought) for b in state.bakers],
        "winners": winners(state),
        "order": standing_order(state),
        "lost_tie": lost_tie(state),
        "ended": end_reason(state),
    }


def active_seats(state: State) -> list[int]:
    """The seat that may act now; [] when the game is over."""
    return [] if state.over else [state.turn]


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.over
