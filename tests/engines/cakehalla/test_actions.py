"""Take, reserve, buy and pass: every condition, and illegal actions leave the state untouched."""

from typing import cast

import pytest

from games.engines import cakehalla as ch
from games.engines.cakehalla.shapes import ReservedCardView
from tests.engines.cakehalla.helpers import counter_ids, fresh, holdings, market, tweak, with_baker

TIER1 = ["1-sugar-1", "1-blueberry-1", "1-matcha-1", "1-cherry-1", "1-cocoa-1", "1-sugar-2"]
TIER2 = ["2-sugar-1", "2-blueberry-1", "2-matcha-1", "2-cherry-1"]
TIER3 = ["3-sugar-1", "3-blueberry-1", "3-matcha-1", "3-cherry-1", "3-cocoa-4"]


def table(players: int = 2):
    """A table with known piles: tier 1 has two left, tier 2 none, tier 3 one."""
    return fresh(players, piles={"1": TIER1, "2": TIER2, "3": TIER3})


def refused(state, seat, action, words: str) -> None:
    """The action raises IllegalAction with those words and leaves the state untouched."""
    before = ch.dump(state)
    with pytest.raises(ch.IllegalAction, match=words):
        ch.apply_action(state, seat, action)
    assert ch.dump(state) == before


def test_market_holds_4_5_7_of_each_and_5_saffron():
    for players, n in ((2, 4), (3, 5), (4, 7)):
        assert market(fresh(players)) == {
            "sugar": n, "blueberry": n, "matcha": n, "cherry": n, "cocoa": n, "saffron": 5
        }  # fmt: skip


def test_bakers_plus_one_customers_face_up():
    for players in (2, 3, 4):
        assert len(ch.view(fresh(players), None)["customers"]) == players + 1


def test_setup_piles_go_face_up_first_four():
    state = table()
    assert counter_ids(state, 1) == TIER1[:4]
    assert ch.view(state, None)["piles"] == {"1": 2, "2": 0, "3": 1}


def test_short_setup_pile_leaves_empty_spaces():
    state = fresh(piles={"2": ["2-sugar-1", "2-cocoa-6"]})
    assert counter_ids(state, 2) == ["2-sugar-1", "2-cocoa-6", None, None]


def test_only_two_to_four_bakers():
    for players in (1, 5):
        with pytest.raises(ch.IllegalAction):
            ch.new_game(players, seed=1)


def test_take_three_different_moves_them_from_market_to_baker():
    take = {"type": "take", "ingredients": ["cocoa", "sugar", "cherry"]}
    state = ch.apply_action(table(), 0, take)
    assert holdings(state, 0) == {
        "sugar": 1, "blueberry": 0, "matcha": 0, "cherry": 1, "cocoa": 1, "saffron": 0
    }  # fmt: skip
    assert market(state)["cocoa"] == 3
    assert ch.active_seats(state) == [1]


def test_take_two_alike_needs_a_pile_of_four():
    state = ch.apply_action(table(), 0, {"type": "take", "ingredients": ["matcha", "matcha"]})
    assert holdings(state, 0)["matcha"] == 2
    refused(state, 1, {"type": "take", "ingredients": ["matcha", "matcha"]}, "4 or more")


def test_take_must_be_three_different_while_three_kinds_are_left():
    refused(table(), 0, {"type": "take", "ingredients": ["sugar", "cocoa"]}, "three different")
    refused(table(), 0, {"type": "take", "ingredients": ["sugar", "sugar", "cocoa"]}, "one of each")
    refused(table(), 0, {"type": "take", "ingredients": ["saffron", "sugar", "cocoa"]}, "Saffron")


def test_with_two_kinds_left_take_one_of_each():
    state = tweak(table(), market=[0, 0, 2, 1, 0, 5])
    assert {"type": "take", "ingredients": ["matcha", "cherry"]} in ch.legal_actions(state, 0)
    refused(state, 0, {"type": "take", "ingredients": ["matcha"]}, "one of each")
    state = ch.apply_action(state, 0, {"type": "take", "ingredients": ["cherry", "matcha"]})
    assert market(state)["matcha"] == 1


def test_cannot_take_an_ingredient_the_market_lacks():
    state = tweak(table(), market=[0, 4, 4, 4, 4, 5])
    refused(state, 0, {"type": "take", "ingredients": ["sugar", "matcha", "cocoa"]}, "no Sugar")


def test_reserve_face_up_refills_the_space_and_gives_saffron():
    state = ch.apply_action(table(), 0, {"type": "reserve", "card": "1-matcha-1"})
    assert counter_ids(state, 1) == ["1-sugar-1", "1-blueberry-1", "1-cocoa-1", "1-cherry-1"]
    assert holdings(state, 0)["saffron"] == 1 and market(state)["saffron"] == 4
    assert (
        cast(ReservedCardView, ch.view(state, 1)["seats"][0]["reserved"][0])["id"] == "1-matcha-1"
    )


def test_reserve_blind_takes_the_top_of_the_pile_unseen():
    state = ch.apply_action(table(), 0, {"type": "reserve", "tier": 3})
    assert cast(ReservedCardView, ch.view(state, 0)["seats"][0]["reserved"][0])["id"] == "3-cocoa-4"
    assert ch.view(state, 1)["seats"][0]["reserved"] == [{"tier": 3, "hidden": True}]
    assert ch.view(state, 0)["piles"]["3"] == 0
    refused(state, 1, {"type": "reserve", "tier": 3}, "empty")


def test_reserve_without_saffron_left_gives_none():
    state = tweak(table(), market=[4, 4, 4, 4, 4, 0])
    state = ch.apply_action(state, 0, {"type": "reserve", "card": "3-sugar-1"})
    assert holdings(state, 0)["saffron"] == 0


def test_at_most_three_reserved():
    state = with_baker(table(), 0, reserved=[["2-sugar-1", False]] * 3)
    refused(state, 0, {"type": "reserve", "card": "1-sugar-1"}, "three reserved")
    assert all(a["type"] != "reserve" for a in ch.legal_actions(state, 0))


def test_reserving_from_an_empty_pile_leaves_an_empty_space():
    state = ch.apply_action(table(), 0, {"type": "reserve", "card": "2-matcha-1"})
    assert counter_ids(state, 2) == ["2-sugar-1", "2-blueberry-1", None, "2-cherry-1"]


def test_buy_pays_cost_minus_discounts_and_returns_it_to_the_market():
    # 1-sugar-1 costs one each of blueberry, matcha, cherry, cocoa; a blueberry discount.
    state = with_baker(table(), 0, tokens={"matcha": 1, "cherry": 2, "cocoa": 1})
    state = with_baker(state, 0, discounts={"blueberry": 1}, bought=["1-blueberry-2"])
    state = tweak(state, market=[4, 4, 3, 2, 3, 5])
    state = ch.apply_action(state, 0, {"type": "buy", "card": "1-sugar-1"})
    assert holdings(state, 0) == {
        "sugar": 0, "blueberry": 0, "matcha": 0, "cherry": 1, "cocoa": 0, "saffron": 0
    }  # fmt: skip
    assert market(state) == {
        "sugar": 4, "blueberry": 4, "matcha": 4, "cherry": 3, "cocoa": 4, "saffron": 5
    }  # fmt: skip
    seat = ch.view(state, 0)["seats"][0]
    assert seat["discounts"]["sugar"] == 1 and seat["cards_bought"] == 2
    assert counter_ids(state, 1) == ["1-cocoa-1", "1-blueberry-1", "1-matcha-1", "1-cherry-1"]


def test_saffron_pays_only_the_shortfall():
    # 1-blueberry-8 costs 4 cherry: holds 2 cherry and 3 saffron, so 2 saffron are spent.
    state = fresh(piles={"1": ["1-blueberry-8"]})
    state = with_baker(state, 0, tokens={"cherry": 2, "saffron": 3})
    state = tweak(state, market=[4, 4, 4, 2, 4, 2])
    state = ch.apply_action(state, 0, {"type": "buy", "card": "1-blueberry-8"})
    assert holdings(state, 0)["cherry"] == 0 and holdings(state, 0)["saffron"] == 1
    assert ch.view(state, 0)["seats"][0]["points"] == 1
    assert counter_ids(state, 1) == [None, None, None, None]


def test_cannot_buy_what_you_cannot_afford():
    state = with_baker(table(), 0, tokens={"cherry": 2, "saffron": 1})
    refused(state, 0, {"type": "buy", "card": "3-sugar-1"}, "cannot afford")


def test_buy_a_reserved_card_takes_it_from_the_reserve():
    state = ch.apply_action(table(), 0, {"type": "reserve", "tier": 3})
    state = ch.apply_action(state, 1, {"type": "take", "ingredients": ["sugar", "matcha", "cocoa"]})
    state = with_baker(state, 0, tokens={"cocoa": 3, "cherry": 7}, discounts={})
    state = ch.apply_action(state, 0, {"type": "buy", "card": "3-cocoa-4"})
    seat = ch.view(state, 0)["seats"][0]
    assert seat["reserved"] == [] and seat["points"] == 5 and seat["cards_bought"] == 1


def test_cannot_buy_a_rivals_reserved_card():
    state = ch.apply_action(table(), 0, {"type": "reserve", "card": "1-sugar-1"})
    state = with_baker(state, 1, tokens={"blueberry": 1, "matcha": 1, "cherry": 1, "cocoa": 1})
    refused(state, 1, {"type": "buy", "card": "1-sugar-1"}, "face-up card or one you reserved")


def test_pass_only_when_nothing_else_is_legal():
    refused(table(), 0, {"type": "pass"}, "cannot pass")
    state = tweak(table(), market=[0, 0, 0, 0, 0, 0], counter=[[None] * 4] * 3, piles=[[]] * 3)
    assert ch.legal_actions(state, 0) == [{"type": "pass"}]
    assert ch.active_seats(ch.apply_action(state, 0, {"type": "pass"})) == [1]


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("take", "must name its type"),
        ({}, "no action called"),
        ({"type": "bake"}, "no action called"),
        ({"type": "take"}, "as a list"),
        ({"type": "take", "ingredients": "sugar"}, "as a list"),
        ({"type": "take", "ingredients": ["flour", "sugar", "cocoa"]}, "no ingredient"),
        ({"type": "take", "ingredients": ["sugar", "matcha", "cocoa"], "x": 1}, "as a list"),
        ({"type": "reserve"}, "Reserve either"),
        ({"type": "reserve", "tier": 4}, "tiers 1, 2 and 3"),
        ({"type": "reserve", "tier": True}, "tiers 1, 2 and 3"),
        ({"type": "reserve", "card": "3-cocoa-4"}, "not face up"),
        ({"type": "reserve", "card": 7}, "no card"),
        ({"type": "buy", "card": "9-sugar-1"}, "no card"),
        ({"type": "return", "ingredients": {"sugar": 1}}, "nothing to put back"),
        ({"type": "customer", "customer": "pair-0"}, "No customer"),
        ({"type": "pass", "card": "1-sugar-1"}, "carries nothing"),
    ],
)
def test_malformed_actions_are_refused_with_a_sentence(action, words):
    refused(table(), 0, action, words)


def test_acting_out_of_turn_is_refused():
    take = {"type": "take", "ingredients": ["sugar", "matcha", "cocoa"]}
    refused(table(), 1, take, "not your turn")
    assert ch.legal_actions(table(), 1) == []


def test_every_order_of_a_take_is_accepted():
    for order in (["sugar", "matcha", "cocoa"], ["cocoa", "sugar", "matcha"]):
        state = ch.apply_action(table(), 0, {"type": "take", "ingredients": order})
        assert holdings(state, 0)["matcha"] == 1


def test_legal_actions_are_all_accepted():
    state = with_baker(table(), 0, tokens={"cherry": 2, "cocoa": 3, "saffron": 2})
    legal = ch.legal_actions(state, 0)
    kinds = {a["type"] for a in legal}
    assert kinds == {"take", "reserve", "buy"}
    for action in legal:
        ch.apply_action(state, 0, action)
