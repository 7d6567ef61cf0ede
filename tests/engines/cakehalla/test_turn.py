"""End of turn: putting back to 10, customers, the last round, winners, a round of passes."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.engines import cakehalla as ch
from tests.engines.cakehalla.helpers import fresh, holdings, market, tweak, with_baker

TAKE = {"type": "take", "ingredients": ["sugar", "matcha", "cocoa"]}
RIVAL_TAKE = {"type": "take", "ingredients": ["blueberry", "cherry", "cocoa"]}


def over_ten():
    """Baker 0 holding 9 and taking 3: two over the limit."""
    state = with_baker(fresh(), 0, tokens={"sugar": 3, "cherry": 4, "saffron": 2})
    state = tweak(state, market=[1, 4, 4, 0, 4, 3])
    return ch.apply_action(state, 0, TAKE)


def test_holding_over_ten_makes_the_baker_put_back_before_anything_else():
    state = over_ten()
    assert ch.view(state, 1)["pending"] == "return"
    assert ch.active_seats(state) == [0]
    legal: Sequence[Mapping[str, Any]] = ch.legal_actions(state, 0)
    assert legal and all(a["type"] == "return" for a in legal)
    assert all(sum(a["ingredients"].values()) == 2 for a in legal)
    with pytest.raises(ch.IllegalAction, match="put some back"):
        ch.apply_action(state, 0, RIVAL_TAKE)


def test_putting_back_exactly_down_to_ten_ends_the_turn():
    state = over_ten()
    with pytest.raises(ch.IllegalAction, match="exactly 2"):
        ch.apply_action(state, 0, {"type": "return", "ingredients": {"cherry": 1}})
    with pytest.raises(ch.IllegalAction, match="only 0 Blueberry"):
        ch.apply_action(state, 0, {"type": "return", "ingredients": {"blueberry": 2}})
    back = {"type": "return", "ingredients": {"saffron": 1, "cherry": 1}}
    state = ch.apply_action(state, 0, back)
    assert sum(holdings(state, 0).values()) == 10
    assert market(state)["saffron"] == 4 and market(state)["cherry"] == 1
    assert ch.active_seats(state) == [1] and ch.view(state, 1)["pending"] is None


def test_every_listed_return_is_accepted():
    state = over_ten()
    for action in ch.legal_actions(state, 0):
        assert sum(holdings(ch.apply_action(state, 0, action), 0).values()) == 10


def customers_table(discounts: dict[str, int]):
    """Baker 0 with these discounts, customers pair-0 (4 sugar, 4 blueberry) and trio-0."""
    state = fresh(customers=["pair-0", "trio-0", "pair-3"])
    return with_baker(state, 0, discounts=discounts)


def test_a_qualifying_customer_visits_on_its_own_for_three_points():
    state = ch.apply_action(customers_table({"sugar": 4, "blueberry": 4}), 0, TAKE)
    seat = ch.view(state, 0)["seats"][0]
    assert seat["customers"] == ["pair-0"] and seat["points"] == 3
    assert [c["id"] for c in ch.view(state, 0)["customers"]] == ["trio-0", "pair-3"]
    assert ch.active_seats(state) == [1]


def test_several_qualifying_customers_make_the_baker_choose_only_one():
    state = ch.apply_action(customers_table({"sugar": 4, "blueberry": 4, "matcha": 3}), 0, TAKE)
    assert ch.view(state, 0)["pending"] == "customer"
    legal: Sequence[Mapping[str, Any]] = ch.legal_actions(state, 0)
    assert sorted(a["customer"] for a in legal) == ["pair-0", "trio-0"]
    with pytest.raises(ch.IllegalAction, match="cannot visit"):
        ch.apply_action(state, 0, {"type": "customer", "customer": "pair-3"})
    state = ch.apply_action(state, 0, {"type": "customer", "customer": "trio-0"})
    seat = ch.view(state, 0)["seats"][0]
    assert seat["customers"] == ["trio-0"] and seat["points"] == 3
    assert ch.active_seats(state) == [1]
    state = ch.apply_action(state, 1, RIVAL_TAKE)
    state = ch.apply_action(state, 0, TAKE)
    assert ch.view(state, 0)["seats"][0]["customers"] == ["trio-0", "pair-0"]


def test_a_customer_met_earlier_visits_on_a_pass():
    state = customers_table({"sugar": 4, "blueberry": 4})
    state = tweak(state, market=[0, 0, 0, 0, 0, 0], counter=[[None] * 4] * 3, piles=[[]] * 3)
    state = ch.apply_action(state, 0, {"type": "pass"})
    assert ch.view(state, 0)["seats"][0]["points"] == 3


def test_reaching_15_plays_the_round_out_so_turns_are_equal():
    state = with_baker(fresh(3), 1, points=14, discounts={"sugar": 4, "blueberry": 4})
    state = tweak(state, customers=["pair-0", "trio-2", "trio-3", "trio-4"])
    state = ch.apply_action(state, 0, TAKE)
    state = ch.apply_action(state, 1, RIVAL_TAKE)
    assert ch.view(state, None)["final"] and not ch.is_over(state)
    with pytest.raises(ch.IllegalAction, match="not over"):
        ch.result(state)
    state = ch.apply_action(state, 2, TAKE)
    assert ch.is_over(state) and ch.active_seats(state) == []
    assert ch.view(state, 0)["turns_done"] == 3
    assert ch.result(state) == {
        "scores": [0, 17, 0],
        "cards_bought": [0, 0, 0],
        "winners": [1],
        "order": [1, 0, 2],
        "lost_tie": [],
        "ended": "points",
    }
    with pytest.raises(ch.IllegalAction, match="over"):
        ch.apply_action(state, 0, TAKE)
    assert ch.legal_actions(state, 0) == []


def test_last_seat_reaching_15_ends_the_game_at_once():
    state = with_baker(fresh(2), 1, points=15)
    state = ch.apply_action(state, 0, TAKE)
    assert not ch.is_over(state)
    state = ch.apply_action(state, 1, RIVAL_TAKE)
    assert ch.is_over(state)


def test_a_points_tie_goes_to_fewer_cards_bought():
    state = with_baker(fresh(2), 0, points=15, bought=["1-sugar-1", "1-sugar-2"])
    state = with_baker(state, 1, points=15, bought=["1-cocoa-1"])
    state = ch.apply_action(ch.apply_action(state, 0, TAKE), 1, RIVAL_TAKE)
    assert ch.result(state)["winners"] == [1]


def test_a_tie_on_points_and_cards_shares_the_win():
    state = with_baker(fresh(2), 0, points=16, bought=["1-sugar-1"])
    state = with_baker(state, 1, points=16, bought=["1-cocoa-1"])
    state = ch.apply_action(ch.apply_action(state, 0, TAKE), 1, RIVAL_TAKE)
    assert ch.result(state)["winners"] == [0, 1]


def test_reserved_cards_do_not_count_in_the_tie_break():
    state = with_baker(fresh(2), 0, points=15, reserved=[["1-sugar-1", True]])
    state = with_baker(state, 1, points=15, bought=["1-cocoa-1"])
    state = ch.apply_action(ch.apply_action(state, 0, TAKE), 1, RIVAL_TAKE)
    assert ch.result(state)["winners"] == [0]


def test_a_whole_round_of_passes_ends_the_game_as_it_stands():
    state = tweak(fresh(3), market=[0, 0, 0, 0, 0, 0], counter=[[None] * 4] * 3, piles=[[]] * 3)
    state = with_baker(state, 2, points=4)
    state = ch.apply_action(state, 0, {"type": "pass"})
    state = ch.apply_action(state, 1, {"type": "pass"})
    assert not ch.is_over(state)
    state = ch.apply_action(state, 2, {"type": "pass"})
    assert ch.is_over(state) and ch.result(state)["winners"] == [2]


def test_an_action_between_passes_restarts_the_count():
    state = tweak(fresh(2), market=[0, 0, 0, 0, 0, 0], counter=[[None] * 4] * 3, piles=[[]] * 3)
    state = with_baker(state, 1, tokens={"saffron": 3}, reserved=[["1-cocoa-7", False]])
    state = ch.apply_action(state, 0, {"type": "pass"})
    assert ch.legal_actions(state, 1) == [{"type": "buy", "card": "1-cocoa-7"}]
    state = ch.apply_action(state, 1, {"type": "buy", "card": "1-cocoa-7"})
    state = ch.apply_action(state, 0, {"type": "pass"})
    assert not ch.is_over(state)
    state = ch.apply_action(state, 1, {"type": "pass"})
    assert ch.is_over(state)
