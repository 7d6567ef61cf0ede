"""The master's judgement: each baker's chance of winning from a standing."""

import pytest

from games.engines.cakehalla import judgement
from games.engines.cakehalla.judgement import FEATURES, WEIGHTS, features, win_chance
from tests.engines.cakehalla.helpers import fresh, with_baker


def test_every_size_has_one_weight_a_feature():
    assert set(WEIGHTS) == {2, 3, 4}
    for weights in WEIGHTS.values():
        assert len(weights) == len(FEATURES)
        assert any(weights)  # fitted, not left at nought


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_chances_of_all_bakers_add_up_to_one(players):
    state = with_baker(fresh(players, seed=3), 1, points=6, discounts=[1, 2, 0, 1, 0])
    chances = [win_chance(state, s) for s in range(players)]
    assert sum(chances) == pytest.approx(1.0)
    assert all(0 < c < 1 for c in chances)


@pytest.mark.parametrize("players", [2, 4])
def test_more_points_and_discounts_mean_a_better_chance(players):
    state = fresh(players, seed=5)
    assert win_chance(state, 1) == pytest.approx(win_chance(with_baker(state, 0), 1))
    ahead = with_baker(state, 1, points=9, discounts=[2, 1, 1, 2, 1], bought=[])
    assert win_chance(ahead, 1) > win_chance(state, 1)
    assert win_chance(ahead, 0) < win_chance(state, 0)
    reached = with_baker(state, 1, points=15)
    assert win_chance(reached, 1) > 0.9


def test_the_features_count_what_a_player_counts():
    state = fresh(2, seed=7)
    state = with_baker(
        state, 0, points=4, discounts=[1, 0, 2, 0, 0], tokens={"sugar": 2, "saffron": 1}
    )
    named = dict(zip(FEATURES, features(state, 0), strict=True))
    assert named["points"] == 4
    assert named["discounts"] == 3
    assert named["ingredients"] == 2
    assert named["saffron"] == 1
    assert named["moves_this_round"] == 1  # seat 0 has the first move of the round
    assert named["reached"] == 0
    assert named["points_late"] == pytest.approx(4 * 4 / 15)


def test_a_card_one_short_counts_less_than_one_buyable_now():
    state = fresh(2, seed=7)
    card = "2-sugar-5"  # 2 points for five cherries
    rich = with_baker(state, 0, reserved=[[card, False]], tokens={"saffron": 5})
    poor = with_baker(state, 0, reserved=[[card, False]], tokens={"saffron": 4})
    reserved = FEATURES.index("reserved_worth")
    assert features(rich, 0)[reserved] > features(poor, 0)[reserved] > 0
    assert judgement._short(rich.bakers[0].reserved[0][0], rich.bakers[0]) == 0
