"""The Baker's Peel: two cards in order, two needed, one per pick, never on the pick it came."""

import pytest

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.cards import face_of
from games.engines.midnight_bakery.shapes import PeelAction
from tests.engines.midnight_bakery.helpers import (
    Step,
    case_faces,
    crafted,
    keep,
    night,
    peel,
    pick,
    play_plan,
    symmetric,
)

PLAN: list[Step] = ["peel", ("bun", "croissant"), "macaron", *["jam"] * 5]


def peel_actions(state: mb.State, seat: int) -> list[PeelAction]:
    """The Peel actions a seat may take now."""
    return [a for a in mb.legal_actions(state, seat) if a["type"] == "peel"]


def test_no_peel_on_the_pick_that_brings_it() -> None:
    state = night(3, symmetric(3, PLAN))
    assert peel_actions(state, 0) == []
    locked = mb.apply_action(state, 0, keep(state.batches[0][0]))
    assert face_of(locked.locks[0][0]) == "peel"  # type: ignore[index]
    assert peel_actions(locked, 1) == []
    after = pick(locked, {})
    assert len(peel_actions(after, 0)) == 8 * 7 // 2
    assert mb.view(after, 0)["can_peel"] is True


def test_peel_files_both_cards_in_order_and_leaves_the_game() -> None:
    states = list(play_plan(night(3, symmetric(3, PLAN)), PLAN[:2]))
    state = states[-1]
    for seat in range(3):
        assert case_faces(state, seat) == ["bun", "croissant"]
        assert mb.view(state, 0)["seats"][seat]["case"][0]["face"] == "bun"
    assert sorted(face_of(card) for card in state.discard) == ["peel"] * 3
    in_play = [c for group in (state.batches, state.cases) for cards in group for c in cards]
    assert not any(face_of(card) == "peel" for card in in_play)
    assert [len(batch) for batch in state.batches] == [6, 6, 6]
    assert all(e["peel"] for e in state.log if e["type"] == "keep" and e["pick"] == 2)


def test_peel_accepts_either_order_and_files_in_that_order() -> None:
    state = list(play_plan(night(3, symmetric(3, PLAN)), PLAN[:1]))[-1]
    batch = state.batches[0]
    bun, croissant = batch[0], batch[1]
    assert {"type": "peel", "cards": [bun, croissant]} in mb.legal_actions(state, 0)
    assert {"type": "peel", "cards": [croissant, bun]} not in mb.legal_actions(state, 0)
    flipped = pick(state, {0: peel(croissant, bun)})
    assert flipped.cases[0] == (croissant, bun)
    straight = pick(state, {0: peel(bun, croissant)})
    assert straight.cases[0] == (bun, croissant)


def test_peel_needs_two_cards_in_the_batch() -> None:
    state = crafted(3, batches=[("croissant-01",), ("bun-01",), ()], cases=[("peel-01",), (), ()])
    assert mb.legal_actions(state, 0) == [keep("croissant-01")]
    assert mb.view(state, 0)["can_peel"] is False
    with pytest.raises(mb.IllegalAction):
        mb.apply_action(state, 0, peel("croissant-01", "bun-01"))
    with pytest.raises(mb.IllegalAction):
        mb.apply_action(state, 0, peel("croissant-01", "croissant-01"))


def test_peel_needs_a_peel_in_the_case() -> None:
    state = crafted(3, batches=[("croissant-01", "bun-01"), ("macaron-01",), ()])
    with pytest.raises(mb.IllegalAction, match="no Baker's Peel"):
        mb.apply_action(state, 0, peel("croissant-01", "bun-01"))


def test_one_peel_per_pick_and_the_oldest_is_spent() -> None:
    state = crafted(
        3,
        batches=[("croissant-01", "bun-01", "jam-01", "fruit-01"), ("macaron-01",), ()],
        cases=[("peel-02", "croissant-09", "peel-01"), (), ()],
    )
    with pytest.raises(mb.IllegalAction):
        mb.apply_action(
            state, 0, {"type": "peel", "cards": ["croissant-01", "bun-01", "jam-01", "fruit-01"]}
        )
    state = pick(state, {0: peel("jam-01", "croissant-01")})
    assert state.cases[0] == ("croissant-09", "peel-01", "jam-01", "croissant-01")
    assert "peel-02" in state.discard
    assert state.batches[1] == ("bun-01", "fruit-01")


def test_peel_taking_a_peel_cannot_use_it_that_pick_but_can_next() -> None:
    state = crafted(
        3,
        batches=[
            ("peel-02", "bun-01", "jam-01"),
            ("macaron-01",),
            ("fruit-01", "croissant-01", "bun-02"),
        ],
        cases=[("peel-01",), (), ()],
    )
    state = pick(state, {0: peel("peel-02", "bun-01")})
    assert state.cases[0] == ("peel-02", "bun-01")
    assert mb.active_seats(state) == [0, 1]
    assert state.batches[0] == ("croissant-01", "bun-02")
    assert peel_actions(state, 0) == [peel("croissant-01", "bun-02")]


def test_peel_of_the_last_two_cards_leaves_that_batch_empty_and_its_holder_sits_out() -> None:
    deck = ["peel"] + ["croissant"] * 8 + ["macaron"] * 9 + ["bun"] * 9
    state = night(3, deck)
    state = pick(state, {0: keep("peel-01")})
    while len(state.batches[0]) > 2:
        state = pick(state, {})
    assert state.pick == 8
    assert [len(b) for b in state.batches] == [2, 2, 2]
    first, second = state.batches[0]
    state = pick(state, {0: peel(first, second)})
    assert [len(b) for b in state.batches] == [1, 0, 1]
    assert mb.active_seats(state) == [0, 2]
    assert mb.legal_actions(state, 1) == []
    sugar = mb.view(state, 1)
    assert sugar["batch"] == [] and sugar["my_turn"] is False
    with pytest.raises(mb.IllegalAction, match="sit out"):
        mb.apply_action(state, 1, keep(state.batches[0][0]))
    state = pick(state, {})
    assert mb.is_over(state)
    rows = mb.result(state)["bakes"][0]
    assert [row["loaves"] for row in rows] == [0, 0, 0]


def test_unused_peel_scores_nothing_and_is_discarded_with_the_case() -> None:
    plan: list[Step] = ["peel", *["jam"] * 8]
    state = list(play_plan(night(3, symmetric(3, plan)), plan))[-1]
    assert mb.is_over(state)
    assert [row["total"] for row in mb.result(state)["bakes"][0]] == [8, 8, 8]
    assert sum(face_of(card) == "peel" for card in state.discard) == 3
