"""Seeded random nights at every table size and passing option, checking invariants each step."""

import json
import os
import random
from typing import Literal

import pytest

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.cards import number_cards, standard_faces
from tests.engines.midnight_bakery.helpers import assert_view_keeps_secrets
from tests.engines.midnight_bakery.reference import night_from_log

RowKey = Literal["croissant", "macaron", "bun", "tart", "baguette", "total", "loaves"]

# Nights a table size and passing plays in `make test` (14 of them: 1,680 nights); a deeper run
# sets MIDNIGHT_NIGHTS (tests/README.md).
NIGHTS = int(os.environ.get("MIDNIGHT_NIGHTS", "120"))
THOROUGH_EVERY = 40
CONFIGS = [(bakers, passing) for bakers in range(2, 9) for passing in ("alternate", "next")]
ROW_KEYS: tuple[RowKey, ...] = ("croissant", "macaron", "bun", "tart", "baguette", "total")

Move = tuple[int, mb.Action]


def every_card(state: mb.State) -> list[str]:
    """Every card the night holds, wherever it is."""
    cards = [*state.deck, *state.discard]
    for group in (state.batches, state.cases, state.truffles):
        for cards_of_seat in group:
            cards.extend(cards_of_seat)
    return cards


def assert_all_there(state: mb.State, dealt: frozenset[str]) -> None:
    """Cards neither made nor lost: each dealt card is in exactly one place."""
    cards = every_card(state)
    assert len(cards) == len(dealt) and set(cards) == dealt


def check_step(state: mb.State, dealt: frozenset[str]) -> list[int]:
    """Cheap invariants at every step; returns the active seats."""
    assert_all_there(state, dealt)
    active = mb.active_seats(state)
    assert active, "a night that is not over must wait for someone"
    for seat in range(state.seats + 1):
        legal = mb.legal_actions(state, seat)
        assert bool(legal) == (seat in active)
    return active


def check_thoroughly(state: mb.State, active: list[int]) -> None:
    """Every legal action applies and leaves the state alone; views keep secrets; dumps load."""
    before = mb.dump(state)
    for seat in active:
        for action in mb.legal_actions(state, seat):
            mb.apply_action(state, seat, action)
    assert mb.dump(state) == before
    for seat in [*range(state.seats), None]:
        assert_view_keeps_secrets(state, seat)
    assert mb.dump(mb.load(json.loads(json.dumps(before)))) == before


def check_dawn(state: mb.State) -> None:
    """Bake totals add up, and the result matches a scorer that reads only the log."""
    final = mb.result(state)
    expected = night_from_log(list(state.log), state.bakers, state.owl)
    for key in ("truffles", "truffle_bonus", "scores", "winners", "banked"):
        assert final[key] == expected[key], key
    running = [0] * state.bakers
    assert len(final["bakes"]) == len(expected["bakes"])
    for rows, ref in zip(final["bakes"], expected["bakes"], strict=True):
        for seat, row in enumerate(rows):
            assert {k: row[k] for k in (*ROW_KEYS, "loaves")} == ref[seat]
            assert row["total"] == sum(row[k] for k in ROW_KEYS[:-1])
            running[seat] += row["total"]
            assert row["running"] == running[seat]
    assert final["banked"] == running
    ends = [e["totals"] for e in state.log if e["type"] == "bake_end"]
    assert ends == [[row["total"] for row in rows] for rows in final["bakes"]]
    assert mb.view(state, None)["result"] == final


def play_night(bakers: int, passing: str, seed: int, thorough: bool) -> tuple[mb.State, list[Move]]:
    """One random night with invariants checked every step; a dump/load swap partway."""
    rng = random.Random(seed)
    state = mb.new_game(bakers, seed=seed, options={"passing": passing})
    dealt = frozenset(number_cards(standard_faces(bakers)))
    swap_at = rng.randrange(60)
    moves: list[Move] = []
    while not mb.is_over(state):
        active = check_step(state, dealt)
        if thorough:
            check_thoroughly(state, active)
        seat = rng.choice(active)
        action = rng.choice(mb.legal_actions(state, seat))
        if action["type"] == "peel" and rng.random() < 0.5:
            action = {"type": "peel", "cards": action["cards"][::-1]}
        state = mb.apply_action(state, seat, action)
        moves.append((seat, action))
        if len(moves) == swap_at:
            state = mb.load(json.loads(json.dumps(mb.dump(state))))
    assert_all_there(state, dealt)
    assert all(mb.legal_actions(state, seat) == [] for seat in range(bakers))
    return state, moves


def replay(bakers: int, passing: str, seed: int, moves: list[Move]) -> mb.State:
    """The same night again from its seed and its moves."""
    state = mb.new_game(bakers, seed=seed, options={"passing": passing})
    for seat, action in moves:
        state = mb.apply_action(state, seat, action)
    return state


@pytest.mark.parametrize(("bakers", "passing"), CONFIGS)
def test_random_nights_keep_every_invariant(bakers: int, passing: str) -> None:
    for night in range(NIGHTS):
        seed = bakers * 100_003 + night * 2 + (passing == "next")
        state, moves = play_night(bakers, passing, seed, thorough=night % THOROUGH_EVERY == 0)
        check_dawn(state)
        assert len(mb.result(state)["bakes"]) == 3
        if night % 5 == 0:
            assert mb.dump(replay(bakers, passing, seed, moves)) == mb.dump(state)
