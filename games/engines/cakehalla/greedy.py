"""The greedy baker's judgement and the tables the bots think on: a whole table sampled from one
seat's view, greedy's score of each action, a standing's worth, and rollouts of greedy play. The
bots (bots.py) and the master (master.py) both search with these."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engines.cakehalla.actions import apply_action
from games.engines.cakehalla.cards import (
    CARD_INDEX,
    CARDS,
    CUSTOMER_INDEX,
    CUSTOMERS,
    INGREDIENTS,
    TIER_CARDS,
    TOKEN_INDEX,
    TOKEN_NAMES,
)
from games.engines.cakehalla.legal import COST_NZ, can_afford, legal_actions
from games.engines.cakehalla.shapes import Action, View
from games.engines.cakehalla.state import EMPTY, HAND_LIMIT, WINNING_POINTS, Baker, State
from games.engines.cakehalla.turn import winners

Choose = Callable[[View, list[Action], random.Random], Action]

WIN_VALUE = 1000.0


def sample_state(view: View, rnd: random.Random) -> State:
    """A plausible whole table built from one seat's view: unseen cards dealt at random."""
    seen: set[int] = set()
    counter = []
    for tier in ("1", "2", "3"):
        row = tuple(CARD_INDEX[c["id"]] if c else EMPTY for c in view["counter"][tier])
        seen.update(c for c in row if c != EMPTY)
        counter.append(row)
    seats = []
    for seat in view["seats"]:
        bought = tuple(CARD_INDEX[c["id"]] for c in seat["cards"])
        seen.update(bought)
        reserved: list[tuple[int, bool] | int] = []
        for r in seat["reserved"]:
            if "hidden" in r:
                reserved.append(r["tier"])
            else:
                c = CARD_INDEX[r["id"]]
                seen.add(c)
                reserved.append((c, bool(r["blind"])))
        seats.append((seat, bought, reserved))
    unseen = {t: [c for c in TIER_CARDS[t] if c not in seen] for t in (1, 2, 3)}
    for cards in unseen.values():
        rnd.shuffle(cards)
    bakers = []
    for seat, bought, reserved in seats:
        held = tuple(
            (unseen[r].pop(), True) if isinstance(r, int) else r
            for r in reserved
            if not isinstance(r, int) or unseen[r]
        )
        bakers.append(
            Baker(
                tuple(seat["ingredients"][n] for n in TOKEN_NAMES),
                tuple(seat["discounts"][n] for n in INGREDIENTS),
                seat["points"],
                bought,
                held,
                tuple(CUSTOMER_INDEX[c] for c in seat["customers"]),
            )
        )
    state = State.__new__(State)
    state.players = view["players"]
    state.rng = rnd.getrandbits(64)
    state.market = tuple(view["market"][n] for n in TOKEN_NAMES)
    state.piles = tuple(tuple(unseen[t][: view["piles"][str(t)]]) for t in (1, 2, 3))
    state.counter = tuple(counter)
    state.customers = tuple(CUSTOMER_INDEX[c["id"]] for c in view["customers"])
    state.bakers = tuple(bakers)
    state.turn = view["turn"] if view["turn"] is not None else 0
    state.round = view["round"]
    state.turns_done = view["turns_done"]
    state.pending = view["pending"]
    state.final = view["final"]
    state.passes = view["passes"]
    state.over = view["over"]
    state.log = None
    return state


def _gap(card: int, baker: Baker) -> list[int]:
    """What the baker still lacks of each ordinary ingredient to buy the card (before Saffron)."""
    tokens = baker.tokens
    discounts = baker.discounts
    gap = [0, 0, 0, 0, 0]
    for i, n in COST_NZ[card]:
        n -= tokens[i] + discounts[i]
        if n > 0:
            gap[i] = n
    return gap


class _Plan:
    """What a greedy baker wants now: customer demand, card values and a target card."""

    __slots__ = ("baker", "demand", "keep", "target_gap", "values")

    def __init__(self, state: State, seat: int) -> None:
        baker = state.bakers[seat]
        self.baker = baker
        discounts = baker.discounts
        demand = [0.0] * 5
        for c in state.customers:
            wants = CUSTOMERS[c].wants
            missing = sum(w - d for w, d in zip(wants, discounts, strict=True) if w > d)
            if missing:
                for i in range(5):
                    if wants[i] > discounts[i]:
                        demand[i] += 3.0 / (missing + 1)
        self.demand = demand
        early = max(0.0, (WINNING_POINTS - 5 - baker.points) / 10)
        cards = [c for row in state.counter for c in row if c != EMPTY]
        cards += [c for c, _ in baker.reserved]
        values: dict[int, float] = {}
        best = -1.0
        target_gap = [0, 0, 0, 0, 0]
        saffron = baker.tokens[5]
        for c in cards:
            card = CARDS[c]
            value = card.points + 0.5 * demand[card.discount] + 0.8 * early
            values[c] = value
            gap = _gap(c, baker)
            short = max(0, sum(gap) - saffron)
            price = sum(max(0, n - discounts[i]) for i, n in COST_NZ[c])
            worth = value / (1.0 + short + 0.25 * price)
            if worth > best:
                best = worth
                target_gap = gap
        self.values = values
        self.target_gap = target_gap
        keep = [0.2 + 0.3 * (g > 0) for g in target_gap]
        self.keep = [*keep, 2.0]


def _take_score(plan: _Plan, picks: list[int]) -> float:
    """How far a take brings the baker toward the target card."""
    gap = list(plan.target_gap)
    score = 0.0
    for i in picks:
        if gap[i] > 0:
            score += 1.0
            gap[i] -= 1
        else:
            score += 0.15 + 0.05 * plan.demand[i]
    over = sum(plan.baker.tokens) + len(picks) - HAND_LIMIT
    if over > 0:
        score -= 0.6 * over
    return score


def _deny_score(state: State, seat: int, card: int) -> float:
    """How much reserving the card hurts a rival who could buy it now."""
    points = CARDS[card].points
    worst = 0.0
    for s, rival in enumerate(state.bakers):
        if s != seat and can_afford(rival, card):
            threat = points + (6.0 if rival.points + points >= WINNING_POINTS else 0.0)
            worst = max(worst, threat)
    return worst


def _score(state: State, seat: int, plan: _Plan, action: Action) -> float:
    """The greedy value of one legal action."""
    baker = plan.baker
    if action["type"] == "buy":
        c = CARD_INDEX[action["card"]]
        gap = _gap(c, baker)
        price = sum(max(0, n - baker.discounts[i]) for i, n in COST_NZ[c])
        return 3.0 + 2.0 * plan.values[c] - 0.15 * price - 0.6 * sum(gap)
    if action["type"] == "take":
        return _take_score(plan, [TOKEN_INDEX[n] for n in action["ingredients"]])
    if action["type"] == "reserve":
        saffron = 0.6 if state.market[5] else 0.0
        crowd = 0.5 * len(baker.reserved)
        if "tier" in action:
            return saffron + (0.3 if action["tier"] == 3 else 0.0) - crowd - 0.4
        c = CARD_INDEX[action["card"]]
        deny = _deny_score(state, seat, c)
        own = 0.25 * plan.values[c] if CARDS[c].points >= 3 else 0.0
        return saffron + 0.8 * deny + own - crowd - 0.2
    if action["type"] == "return":
        keep = plan.keep
        return -float(sum(keep[TOKEN_INDEX[n]] * k for n, k in action["ingredients"].items()))
    if action["type"] == "customer":
        wants = CUSTOMERS[CUSTOMER_INDEX[action["customer"]]].wants
        rivals = [b for s, b in enumerate(state.bakers) if s != seat]
        return max(
            -sum(w - d for w, d in zip(wants, b.discounts, strict=True) if w > d) for b in rivals
        )
    return 0.0


def ranked(state: State, seat: int, legal: list[Action], rnd: random.Random) -> list[Action]:
    """The legal actions, best first by the greedy score (ties broken at random)."""
    plan = _Plan(state, seat)
    scored = [(_score(state, seat, plan, a) + rnd.random() * 1e-3, i) for i, a in enumerate(legal)]
    scored.sort(reverse=True)
    return [legal[i] for _, i in scored]


def greedy_action(state: State, seat: int, legal: list[Action], rnd: random.Random) -> Action:
    """The greedy choice on a (sampled) state."""
    if len(legal) == 1:
        return legal[0]
    plan = _Plan(state, seat)
    best = legal[0]
    top = -1e9
    for a in legal:
        score = _score(state, seat, plan, a) + rnd.random() * 1e-3
        if score > top:
            top = score
            best = a
    return best


def _worth(state: State, seat: int) -> float:
    """A baker's standing: points, discounts, ingredients and progress toward customers."""
    b = state.bakers[seat]
    value = b.points + 0.3 * sum(b.discounts) + 0.08 * sum(b.tokens[:5]) + 0.15 * b.tokens[5]
    for c in state.customers:
        wants = CUSTOMERS[c].wants
        gap = sum(w - d for w, d in zip(wants, b.discounts, strict=True) if w > d)
        value += 1.5 * (1 - gap / sum(wants)) ** 2
    return value


def evaluate(state: State, seat: int) -> float:
    """The seat's standing against its best rival; a finished game counts as won or lost."""
    mine = _worth(state, seat)
    rivals = max(_worth(state, s) for s in range(state.players) if s != seat)
    if state.over:
        won = winners(state)
        return mine - rivals + (WIN_VALUE / len(won) if seat in won else -WIN_VALUE)
    return mine - rivals


def rollout(state: State, turns: int, rnd: random.Random) -> State:
    """Play greedy for every seat until that many more turns are done or the game ends."""
    stop = state.turns_done + turns
    while not state.over and state.turns_done < stop:
        seat = state.turn
        action = greedy_action(state, seat, legal_actions(state, seat), rnd)
        state = apply_action(state, seat, action)
    return state


def own_seat(view: View) -> int:
    """The seat whose view this is: a bot plays a seat, never a spectator's view."""
    seat = view["you"]
    if seat is None:
        raise TypeError("A bot plays from its own seat's view, not a spectator's.")
    return seat
