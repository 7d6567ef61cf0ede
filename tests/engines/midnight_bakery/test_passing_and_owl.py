"""Passing Alternate and Next, the two-baker ring, and the Night Owl's snatches."""

import pytest

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.cards import face_of
from games.engines.rng import randbelow, seed_state
from tests.engines.midnight_bakery.helpers import (
    crafted,
    keep,
    night,
    peel,
    pick,
    play_out_bake,
)

THREE_BAKES = (["croissant"] * 9 + ["macaron"] * 9 + ["bun"] * 9) * 3


def faces_held(state: mb.State) -> list[str]:
    """The face of each seat's batch (each test batch is all one face)."""
    return [face_of(batch[0]) if batch else "" for batch in state.batches]


def after_first_pick(state: mb.State) -> list[str]:
    """Which batch each seat holds after the first pick of the current bake."""
    return faces_held(pick(state, {}))


@pytest.mark.parametrize(
    ("passing", "bake_two"),
    [
        ("alternate", ["macaron", "bun", "croissant"]),
        ("next", ["bun", "croissant", "macaron"]),
    ],
)
def test_passing_direction_each_bake(passing: str, bake_two: list[str]) -> None:
    state = night(3, THREE_BAKES, passing)
    assert faces_held(state) == ["croissant", "macaron", "bun"]
    assert after_first_pick(state) == ["bun", "croissant", "macaron"]
    state = play_out_bake(state)
    assert state.bake == 2
    assert after_first_pick(state) == bake_two
    state = play_out_bake(state)
    assert state.bake == 3
    assert after_first_pick(state) == ["bun", "croissant", "macaron"]


def test_view_names_the_passing_direction() -> None:
    state = night(3, THREE_BAKES)
    assert mb.view(state, 0)["direction"] == "next"
    assert mb.view(play_out_bake(state), 0)["direction"] == "previous"
    nxt = play_out_bake(night(3, THREE_BAKES, "next"))
    assert mb.view(nxt, 0)["direction"] == "next"


def test_a_batch_passes_on_without_the_kept_card() -> None:
    state = night(3, THREE_BAKES)
    before = state.batches[0]
    state = pick(state, {0: keep(before[4])})
    assert state.batches[1] == before[:4] + before[5:]


def test_two_baker_ring_forward_flour_sugar_owl_and_the_owl_snatches_alone() -> None:
    state = night(2, ["baguette-2", "baguette-1", "baguette-3"])
    assert [len(b) for b in state.batches] == [3, 0, 0]
    state = pick(state, {0: keep("baguette-2-01")})
    assert [len(b) for b in state.batches] == [0, 2, 0]
    assert mb.active_seats(state) == [1]
    state = pick(state, {1: keep("baguette-1-01")})
    snatch = next(e for e in state.log if e["type"] == "snatch")
    assert snatch["card"] == "baguette-3-01"
    assert "Night Owl snatched a Baguette (3 loaves)" in snatch["text"]
    assert mb.is_over(state)
    final = mb.result(state)
    assert [row["baguette"] for row in final["bakes"][0]] == [3, 0]
    assert final["scores"] == [0, -3]
    assert final["winners"] == [0]


def test_two_baker_ring_backward_flour_owl_sugar() -> None:
    state = night(2, ["croissant"] * 30 + ["macaron", "bun", "jam"])
    state = play_out_bake(state)
    assert state.bake == 2
    assert [len(b) for b in state.batches] == [3, 0, 0]
    rng_before = state.rng
    state = pick(state, {0: keep("macaron-01")})
    index, _ = randbelow(2, rng_before)
    snatched = ("bun-01", "jam-01")[index]
    assert state.cases[2] == (snatched,)
    assert [len(b) for b in state.batches] == [0, 1, 0]
    assert mb.active_seats(state) == [1]
    kinds = [e["type"] for e in state.log[-2:]]
    assert kinds == ["keep", "snatch"]


def test_two_baker_ring_under_next_passes_forward_in_bake_two() -> None:
    state = night(2, ["croissant"] * 30 + ["macaron", "bun", "jam"], passing="next")
    state = play_out_bake(state)
    state = pick(state, {0: keep("macaron-01")})
    assert [len(b) for b in state.batches] == [0, 2, 0]
    assert state.cases[2] == ()


def test_owl_snatches_from_the_seeded_stream() -> None:
    faces = ["croissant", "croissant", "truffle", "jam", "bun", "glaze"]
    seen = set()
    for seed in range(40):
        state = night(2, faces, seed=seed)
        assert state.rng == seed_state(seed)
        state = pick(state, {0: keep("croissant-01")})
        state = pick(state, {1: keep("croissant-02")})
        index, _ = randbelow(4, seed_state(seed))
        expected = ("truffle-01", "jam-01", "bun-01", "glaze-01")[index]
        snatched = state.log[-1] if state.log[-1]["type"] == "snatch" else None
        assert snatched is not None
        assert snatched["card"] == expected
        seen.add(expected)
    assert len(seen) == 4


def test_same_seed_same_snatches() -> None:
    one, two = mb.new_game(2, seed=3), mb.new_game(2, seed=3)
    for _ in range(5):
        one, two = pick(one, {}), pick(two, {})
    assert one.cases[2] == two.cases[2]
    assert len(one.cases[2]) + len(one.truffles[2]) == 5


def test_owl_snatches_once_every_pick_while_it_holds_cards() -> None:
    state = mb.new_game(2, seed=21)
    for n in range(1, 11):
        state = pick(state, {})
        owl_cards = len(state.cases[2]) + len(state.truffles[2])
        assert owl_cards == n or state.bake == 2
    assert state.bake == 2
    assert sum(1 for e in state.log if e["type"] == "snatch") == 10


def test_owl_has_no_seat_number_and_no_actions() -> None:
    state = mb.new_game(2, seed=1)
    assert mb.active_seats(state) == [0, 1]
    assert mb.legal_actions(state, 2) == []
    with pytest.raises(mb.IllegalAction):
        mb.apply_action(state, 2, keep(state.batches[2][0]))


def test_owl_keeps_snatching_when_a_peel_empties_both_bakers_hands() -> None:
    state = crafted(
        2,
        batches=[("croissant-01", "croissant-02"), ("macaron-01", "macaron-02", "macaron-03"), ()],
        cases=[("peel-01",), (), ()],
    )
    state = mb.apply_action(state, 0, peel("croissant-01", "croissant-02"))
    state = mb.apply_action(state, 1, keep("macaron-01"))
    assert [e["type"] for e in state.log] == ["keep", "keep", "snatch"]
    assert len(state.cases[2]) == 1
    assert [len(b) for b in state.batches] == [1, 0, 0]
    assert mb.active_seats(state) == [0]


def test_owl_takes_the_last_card_alone_and_the_bake_ends() -> None:
    state = crafted(
        2,
        batches=[("croissant-01", "croissant-02"), ("macaron-01", "macaron-02"), ()],
        cases=[("peel-01",), (), ()],
    )
    state = mb.apply_action(state, 0, peel("croissant-02", "croissant-01"))
    state = mb.apply_action(state, 1, keep("macaron-02"))
    assert [e["type"] for e in state.log[:4]] == ["keep", "keep", "snatch", "bake_end"]
    assert state.log[2]["card"] == "macaron-01"
    assert state.bake == 2 or mb.is_over(state)


@pytest.mark.parametrize(
    ("owl", "bonus", "denied"),
    [
        (("truffle-01", "truffle-02"), [0, -3], True),
        (("truffle-01",), [7, -3], False),
        ((), [7, -3], False),
    ],
)
def test_owl_truffles_at_dawn(owl: tuple[str, ...], bonus: list[int], denied: bool) -> None:
    state = crafted(
        2,
        bake=3,
        batches=[("croissant-01",), (), ()],
        truffles=[("truffle-03",), (), owl],
        banked=[10, 10],
    )
    state = mb.apply_action(state, 0, keep("croissant-01"))
    final = mb.result(state)
    assert final["truffle_bonus"] == bonus
    assert final["owl_truffles"] == len(owl)
    assert final["owl_denied"] is denied
    assert final["scores"] == [10 + bonus[0], 10 + bonus[1]]
    assert 2 not in final["winners"]


def test_an_owl_with_the_only_truffles_denies_no_bonus() -> None:
    state = crafted(
        2,
        bake=3,
        batches=[("croissant-01",), (), ()],
        truffles=[(), (), ("truffle-01",)],
        banked=[10, 10],
    )
    final = mb.result(mb.apply_action(state, 0, keep("croissant-01")))
    assert final["truffle_bonus"] == [-3, -3]
    assert final["owl_truffles"] == 1 and final["owl_denied"] is False
