"""Scoring a bake and dawn: sets, tarts and glazes, baguette ranks, truffles, winners."""

import pytest

from games.engines.midnight_bakery.cards import number_cards
from games.engines.midnight_bakery.scoring import (
    baguette_points,
    bake_breakdowns,
    bun_points,
    case_breakdown,
    croissant_points,
    loaves_in,
    macaron_points,
    owl_denies,
    tart_points,
    truffle_bonus,
    winners,
)


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 0), (2, 4), (3, 4), (4, 8), (7, 12)])
def test_croissants_score_four_a_pair(count: int, points: int) -> None:
    assert croissant_points(count) == points


@pytest.mark.parametrize(
    ("count", "points"), [(0, 0), (1, 0), (2, 0), (3, 9), (4, 9), (5, 9), (6, 18), (9, 27)]
)
def test_macarons_score_nine_for_every_three(count: int, points: int) -> None:
    assert macaron_points(count) == points


@pytest.mark.parametrize(
    ("count", "points"), [(0, 0), (1, 1), (2, 3), (3, 5), (4, 8), (5, 12), (6, 15), (7, 18)]
)
def test_buns_climb_then_add_three_after_the_fifth(count: int, points: int) -> None:
    assert bun_points(count) == points


def test_tarts_score_face_value_unglazed() -> None:
    jam, fruit, chocolate = number_cards(["jam", "fruit", "chocolate"])
    assert tart_points((jam,), frozenset()) == 1
    assert tart_points((fruit,), frozenset()) == 2
    assert tart_points((chocolate,), frozenset()) == 3
    assert tart_points((jam, fruit, chocolate), frozenset()) == 6


def test_glazed_tarts_score_four_more() -> None:
    jam, fruit, chocolate = number_cards(["jam", "fruit", "chocolate"])
    assert tart_points((jam,), frozenset({jam})) == 5
    assert tart_points((fruit,), frozenset({fruit})) == 6
    assert tart_points((chocolate,), frozenset({chocolate})) == 7


def test_glaze_and_peel_score_nothing_by_themselves() -> None:
    case = tuple(number_cards(["glaze", "glaze", "peel", "truffle"]))
    assert case_breakdown(case, frozenset()) == {"croissant": 0, "macaron": 0, "bun": 0, "tart": 0}


def test_case_breakdown_counts_each_set() -> None:
    case = tuple(number_cards(["croissant"] * 3 + ["macaron"] * 3 + ["bun"] * 2 + ["fruit"]))
    assert case_breakdown(case, frozenset()) == {"croissant": 4, "macaron": 9, "bun": 3, "tart": 2}


def test_loaves_add_up_whatever_the_split() -> None:
    assert loaves_in(tuple(number_cards(["baguette-1", "baguette-2", "baguette-3"]))) == 6
    assert loaves_in(tuple(number_cards(["baguette-3", "baguette-3"]))) == 6
    assert loaves_in(tuple(number_cards(["croissant"]))) == 0


def test_six_bakers_with_tied_leaders_skip_rank_two() -> None:
    assert baguette_points([9, 9, 6, 6, 4, 0], 6) == [7, 7, 1, 1, 0, 0]


def test_six_bakers_tied_second_place_both_score_three() -> None:
    assert baguette_points([10, 7, 7, 5, 3, 2], 6) == [7, 3, 3, 0, 0, 0]


def test_four_bakers_never_pay_rank_three() -> None:
    assert baguette_points([8, 8, 5, 2], 4) == [7, 7, 0, 0]
    assert baguette_points([8, 5, 2, 1], 4) == [7, 3, 0, 0]


def test_rank_three_pays_one_from_six_bakers() -> None:
    assert baguette_points([8, 5, 2, 1, 0], 5) == [7, 3, 0, 0, 0]
    assert baguette_points([8, 5, 2, 1, 0, 0], 6) == [7, 3, 1, 0, 0, 0]
    assert baguette_points([8, 5, 2, 1, 0, 0, 0, 0], 8) == [7, 3, 1, 0, 0, 0, 0, 0]


def test_no_loaves_scores_nothing_and_takes_no_rank() -> None:
    assert baguette_points([0, 0, 0], 3) == [0, 0, 0]
    assert baguette_points([0, 2, 0], 3) == [0, 7, 0]


def test_everyone_tied_shares_rank_one() -> None:
    assert baguette_points([4, 4, 4, 4, 4, 4], 6) == [7] * 6


def test_owl_loaves_take_a_rank_at_two_bakers() -> None:
    assert baguette_points([2, 1, 3], 2)[:2] == [3, 0]


def test_owl_counts_neither_for_six_bakers_nor_for_a_score() -> None:
    cases = [tuple(number_cards(["baguette-2"])), tuple(number_cards(["baguette-1"]))]
    owl_case = tuple(number_cards(["baguette-3"]))
    rows = bake_breakdowns([*cases, owl_case], [frozenset()] * 3, 2, [10, 0])
    assert [row["baguette"] for row in rows] == [3, 0]
    assert len(rows) == 2


def test_bake_breakdown_totals_and_running() -> None:
    case = tuple(number_cards(["croissant", "croissant", "bun", "chocolate", "baguette-2"]))
    rows = bake_breakdowns([case, ()], [frozenset({case[3]}), frozenset()], 2, [5, 1])
    assert rows[0] == {
        "croissant": 4,
        "macaron": 0,
        "bun": 1,
        "tart": 7,
        "baguette": 7,
        "loaves": 2,
        "total": 19,
        "running": 24,
    }
    assert rows[1]["total"] == 0
    assert rows[1]["running"] == 1


def test_most_truffles_score_seven_and_empty_boxes_lose_three() -> None:
    assert truffle_bonus([3, 1, 0], None) == [7, 0, -3]


def test_tied_truffle_leaders_each_score_seven() -> None:
    assert truffle_bonus([2, 2, 1, 0], None) == [7, 7, 0, -3]


def test_a_table_without_truffles_all_lose_three() -> None:
    assert truffle_bonus([0, 0, 0], None) == [-3, -3, -3]


def test_owl_with_strictly_most_truffles_denies_the_seven() -> None:
    assert truffle_bonus([2, 1], 3) == [0, 0]
    assert truffle_bonus([2, 0], 3) == [0, -3]


def test_owl_tied_with_the_leaders_denies_nothing() -> None:
    assert truffle_bonus([2, 1], 2) == [7, 0]
    assert truffle_bonus([2, 2], 2) == [7, 7]


def test_the_owl_denies_only_a_bonus_some_baker_could_have_had() -> None:
    assert owl_denies([2, 1], 3) and owl_denies([1, 0], 2)
    assert not owl_denies([2, 1], 2)  # a tie with the leader takes nothing
    assert not owl_denies([0, 0], 3)  # no baker had a truffle: no 7 was there to take
    assert not owl_denies([2, 1], None)
    assert truffle_bonus([0, 0], 3) == [-3, -3]


def test_owl_empty_box_costs_nobody() -> None:
    assert truffle_bonus([1, 1], 0) == [7, 7]
    assert truffle_bonus([1, 0], 0) == [7, -3]


def test_highest_total_wins() -> None:
    assert winners([30, 41, 12], [0, 0, 5]) == [1]


def test_tied_totals_go_to_most_truffles() -> None:
    assert winners([30, 30, 12], [1, 2, 5]) == [1]


def test_tied_totals_and_truffles_share_the_night() -> None:
    assert winners([30, 30, 12], [2, 2, 5]) == [0, 1]
    assert winners([0, 0, 0], [0, 0, 0]) == [0, 1, 2]
