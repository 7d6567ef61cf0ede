"""The random and greedy bots: always legal, decided from the seat's own view, and sensible."""

import json
import random
from typing import Any, cast

import pytest

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.bots import BOTS, choose
from games.engines.midnight_bakery.shapes import KeepAction
from tests.engines.midnight_bakery.helpers import crafted


def bot_night(bakers: int, seed: int, levels: list[str]) -> mb.State:
    """A night of bots, each given only a JSON copy of its own view and its legal actions."""
    rng = random.Random(seed)
    state = mb.new_game(bakers, seed=seed)
    while not mb.is_over(state):
        for seat in mb.active_seats(state):
            legal = mb.legal_actions(state, seat)
            shown = json.loads(json.dumps(mb.view(state, seat)))
            action = BOTS[levels[seat]](shown, legal, rng)
            assert action in legal
            state = mb.apply_action(state, seat, action)
    return state


@pytest.mark.parametrize("bakers", [2, 3, 5, 8])
def test_bots_play_whole_nights_with_legal_actions(bakers: int) -> None:
    levels = ["greedy" if seat % 2 else "random" for seat in range(bakers)]
    for seed in range(3):
        assert len(mb.result(bot_night(bakers, seed, levels))["bakes"]) == 3


def test_same_view_same_rng_same_choice() -> None:
    """Every level that answers at once. The master thinks for a time budget, so how far it
    gets depends on the machine; at a fixed count it weighs the same every time
    (test_master.py: test_the_same_seed_and_count_weigh_the_same, and across processes)."""
    state = mb.new_game(4, seed=3)
    shown, legal = mb.view(state, 1), mb.legal_actions(state, 1)
    for level in (level for level in BOTS if level != "master"):
        picks = {json.dumps(BOTS[level](shown, legal, random.Random(9))) for _ in range(3)}
        assert len(picks) == 1


def choice_for(state: mb.State, seat: int = 0) -> mb.Action:
    """What the greedy bot does in this seat now."""
    return choose(mb.view(state, seat), mb.legal_actions(state, seat), random.Random(0))


def table(batch: tuple[str, ...], case: tuple[str, ...] = (), **more: Any) -> mb.State:
    """Flour holds a batch with a case already filed; Sugar holds a spare batch."""
    return crafted(3, batches=[batch, ("bun-09", "bun-08"), ()], cases=[case, (), ()], **more)


def test_greedy_completes_a_croissant_pair() -> None:
    state = table(("jam-01", "croissant-02", "bun-01"), ("croissant-01",))
    assert choice_for(state) == {"type": "keep", "card": "croissant-02"}


def test_greedy_completes_three_macarons() -> None:
    state = table(("chocolate-01", "macaron-03", "croissant-01"), ("macaron-01", "macaron-02"))
    assert choice_for(state) == {"type": "keep", "card": "macaron-03"}


def test_greedy_glazes_a_waiting_tart() -> None:
    state = table(("glaze-01", "fruit-01", "bun-01"), ("chocolate-01",))
    assert choice_for(state) == {"type": "keep", "card": "glaze-01"}


def test_greedy_takes_a_tart_for_a_waiting_glaze() -> None:
    state = table(
        ("croissant-01", "chocolate-01", "bun-01"), ("glaze-01",), waiting=[("glaze-01",), (), ()]
    )
    assert choice_for(state) == {"type": "keep", "card": "chocolate-01"}


def test_greedy_escapes_an_empty_truffle_box_late_in_the_night() -> None:
    state = crafted(
        3,
        bake=3,
        batches=[("truffle-01", "jam-01"), ("bun-01",), ()],
        truffles=[(), ("truffle-02",), ("truffle-03",)],
        banked=[0, 0, 0],
    )
    assert choice_for(state) == {"type": "keep", "card": "truffle-01"}


def test_greedy_contests_the_baguette_lead() -> None:
    state = crafted(
        3,
        batches=[("baguette-3-01", "jam-01", "bun-01"), ("bun-09",), ()],
        cases=[("baguette-2-01",), ("baguette-3-02", "baguette-1-01"), ()],
    )
    assert choice_for(state) == {"type": "keep", "card": "baguette-3-01"}


def test_greedy_spends_a_peel_on_two_good_cards_at_the_end() -> None:
    state = table(
        ("macaron-03", "croissant-02"), ("peel-01", "macaron-01", "macaron-02", "croissant-01")
    )
    action = choice_for(state)
    assert action["type"] == "peel"
    assert sorted(action["cards"]) == ["croissant-02", "macaron-03"]


def test_random_bot_picks_among_legal_actions() -> None:
    state = mb.new_game(2, seed=4)
    legal = mb.legal_actions(state, 0)
    picks = (BOTS["random"](mb.view(state, 0), legal, random.Random(i)) for i in range(60))
    seen = {cast(KeepAction, pick)["card"] for pick in picks}  # no peel yet: keeps only
    assert len(seen) > 3
