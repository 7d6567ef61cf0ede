"""Every worked example on the Midnight Bakery rules page, played through the engine."""

import pytest

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.cards import number_cards
from games.engines.midnight_bakery.shapes import BakeRow
from tests.engines.midnight_bakery.helpers import (
    Step,
    crafted,
    glazed_faces,
    keep,
    night,
    pick,
    play_plan,
    symmetric,
)


def bake_row(plan: list[Step]) -> BakeRow:
    """Flour's bake breakdown when three bakers all keep the plan, padded with unused Peels."""
    count = sum(1 if isinstance(step, str) else 2 for step in plan)
    full = plan + ["peel"] * (9 - count)
    state = list(play_plan(night(3, symmetric(3, full)), full))[-1]
    row = mb.result(state)["bakes"][0][0]
    return row


def scored(bakers: int, loaves: list[list[str]], bake: int = 1) -> list[BakeRow]:
    """The bake rows when each seat's case holds the given baguettes and Flour keeps a Peel."""
    ids = iter(number_cards([face for case in loaves for face in case]))
    cases = [tuple(next(ids) for _ in case) for case in loaves]
    batches = [("peel-01",)] + [()] * (len(loaves) - 1)
    state = crafted(bakers, bake=bake, cases=cases, batches=batches)
    state = mb.apply_action(state, 0, keep("peel-01"))
    rows = mb.result(state)["bakes"][bake - 1]
    return rows


def of_loaves(total: int) -> list[str]:
    """Baguettes making a loaf total, threes first."""
    return ["baguette-3"] * (total // 3) + ([f"baguette-{total % 3}"] if total % 3 else [])


@pytest.mark.parametrize(("count", "points"), [(1, 0), (2, 4), (3, 4), (4, 8)])
def test_one_croissant_is_0_two_are_4_three_are_4_four_are_8(count: int, points: int) -> None:
    assert bake_row(["croissant"] * count)["croissant"] == points


@pytest.mark.parametrize(("count", "points"), [(2, 0), (3, 9), (4, 9), (6, 18)])
def test_two_macarons_are_0_three_9_four_9_six_18(count: int, points: int) -> None:
    assert bake_row(["macaron"] * count)["macaron"] == points


@pytest.mark.parametrize(("count", "points"), [(1, 1), (2, 3), (3, 5), (4, 8), (5, 12), (6, 15)])
def test_buns_score_1_3_5_8_12_and_six_are_15(count: int, points: int) -> None:
    assert bake_row(["bun"] * count)["bun"] == points


@pytest.mark.parametrize(
    ("face", "plain", "glazed"), [("jam", 1, 5), ("fruit", 2, 6), ("chocolate", 3, 7)]
)
def test_tarts_jam_1_fruit_2_chocolate_3_and_glazed_5_6_7(
    face: str, plain: int, glazed: int
) -> None:
    assert bake_row([face])["tart"] == plain
    assert bake_row([face, "glaze"])["tart"] == glazed
    assert bake_row(["glaze", face])["tart"] == glazed


def test_glaze_and_peel_score_nothing_by_themselves() -> None:
    row = bake_row(["glaze", "glaze"])
    assert row["total"] == 0


def test_glaze_lands_on_chocolate_then_fruit_then_jam() -> None:
    plan: list[Step] = [
        "jam",
        "fruit",
        "chocolate",
        "glaze",
        "peel",
        "peel",
        "peel",
        "peel",
        "peel",
    ]
    state = list(play_plan(night(3, symmetric(3, plan)), plan))[3]
    assert glazed_faces(state, 0) == ["chocolate"]


def test_a_glaze_still_waiting_at_the_end_of_the_bake_scores_0() -> None:
    assert bake_row(["glaze", "glaze", "jam"])["tart"] == 5


def test_peel_glaze_and_tart_count_as_kept_together_whatever_the_order() -> None:
    one = bake_row(["peel", "jam", ("glaze", "fruit")])
    other = bake_row(["peel", "jam", ("fruit", "glaze")])
    assert one["tart"] == other["tart"] == 1 + 6


def test_loaves_count_not_how_they_were_split() -> None:
    rows = scored(3, [["baguette-1", "baguette-1", "baguette-1"], ["baguette-3"], ["baguette-2"]])
    assert [row["baguette"] for row in rows] == [7, 7, 0]


def test_six_bakers_with_9_9_6_6_4_0_loaves() -> None:
    rows = scored(6, [of_loaves(n) for n in (9, 9, 6, 6, 4, 0)])
    assert [row["loaves"] for row in rows] == [9, 9, 6, 6, 4, 0]
    assert [row["baguette"] for row in rows] == [7, 7, 1, 1, 0, 0]


def test_six_bakers_with_10_7_7_5_3_2_loaves() -> None:
    rows = scored(6, [of_loaves(n) for n in (10, 7, 7, 5, 3, 2)])
    assert [row["baguette"] for row in rows] == [7, 3, 3, 0, 0, 0]


def test_four_bakers_with_8_8_5_2_loaves_pay_no_rank_three() -> None:
    rows = scored(4, [of_loaves(n) for n in (8, 8, 5, 2)])
    assert [row["baguette"] for row in rows] == [7, 7, 0, 0]


def test_two_bakers_owl_with_3_loaves_makes_2_rank_two() -> None:
    rows = scored(2, [of_loaves(2), of_loaves(1), of_loaves(3)])
    assert [row["baguette"] for row in rows] == [3, 0]
    without_owl = scored(2, [of_loaves(2), of_loaves(1), []])
    assert [row["baguette"] for row in without_owl] == [7, 3]


def test_owl_example_played_from_a_deck() -> None:
    state = night(2, ["baguette-2", "baguette-1", "baguette-3"])
    state = pick(state, {0: keep("baguette-2-01")})
    state = pick(state, {1: keep("baguette-1-01")})
    assert mb.result(state)["bakes"][0][0]["baguette"] == 3


def dawn(bakers: int, boxes: list[int], banked: list[int], owl: int | None = None) -> mb.Result:
    """The result when a night ends with these truffle boxes and banked points."""
    ids = iter(number_cards(["truffle"] * (sum(boxes) + (owl or 0))))
    truffles = [tuple(next(ids) for _ in range(n)) for n in [*boxes, *([owl] if owl else [])]]
    if bakers == 2 and owl is None:
        truffles.append(())
    state = crafted(
        bakers,
        bake=3,
        batches=[("peel-01",)] + [()] * (len(truffles) - 1),
        truffles=truffles,
        banked=banked,
    )
    final = mb.result(mb.apply_action(state, 0, keep("peel-01")))
    return final


def test_most_truffles_score_7_and_an_empty_box_minus_3() -> None:
    final = dawn(3, [3, 1, 0], [10, 10, 10])
    assert final["truffle_bonus"] == [7, 0, -3]
    assert final["scores"] == [17, 10, 7]


def test_a_truffle_tie_shares_the_7_in_full() -> None:
    assert dawn(4, [2, 2, 1, 0], [0] * 4)["truffle_bonus"] == [7, 7, 0, -3]


def test_a_table_with_no_truffles_all_take_minus_3_and_standings_hold() -> None:
    final = dawn(3, [0, 0, 0], [12, 20, 5])
    assert final["truffle_bonus"] == [-3, -3, -3]
    assert final["scores"] == [9, 17, 2]
    assert final["winners"] == [1]


def test_the_owl_can_hold_the_most_and_deny_every_baker_the_7() -> None:
    assert dawn(2, [2, 1], [0, 0], owl=3)["truffle_bonus"] == [0, 0]


def test_the_owl_empty_box_hands_out_no_minus_3_and_takes_no_rank() -> None:
    final = dawn(2, [1, 1], [0, 0])
    assert final["owl_truffles"] == 0
    assert final["truffle_bonus"] == [7, 7]


def test_highest_total_wins_the_night() -> None:
    assert dawn(3, [1, 1, 1], [30, 31, 12])["winners"] == [1]


def test_tied_bakers_the_most_truffles_wins() -> None:
    final = dawn(3, [2, 1, 0], [23, 30, 12])
    assert final["scores"] == [30, 30, 9]
    assert final["winners"] == [0]


def test_tied_on_points_and_truffles_share_the_night() -> None:
    final = dawn(3, [1, 1, 0], [20, 20, 30])
    assert final["scores"] == [27, 27, 27]
    assert final["winners"] == [0, 1]
    state = crafted(
        3,
        bake=3,
        batches=[("peel-01",), (), ()],
        truffles=[("truffle-01",), ("truffle-02",), ()],
        banked=[20, 20, 30],
    )
    state = mb.apply_action(state, 0, keep("peel-01"))
    assert state.log[-1]["text"] == "Dawn. Flour and Sugar share the night."


def test_the_owl_never_wins() -> None:
    final = dawn(2, [0, 0], [0, 0], owl=5)
    assert final["winners"] == [0, 1]
    assert len(final["scores"]) == 2
