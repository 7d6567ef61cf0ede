"""What a board shows that the rules decide comes from the view and the result, never a copy."""

from collections.abc import Mapping, Sequence
from typing import Any

from games.engines import cakehalla as ch
from tests.engines.cakehalla.helpers import fresh, tweak, with_baker

TAKE = {"type": "take", "ingredients": ["sugar", "matcha", "cocoa"]}
RIVAL_TAKE = {"type": "take", "ingredients": ["blueberry", "cherry", "cocoa"]}
EMPTY_TABLE = {"market": [0, 0, 0, 0, 0, 0], "counter": [[None] * 4] * 3, "piles": [[]] * 3}


def test_the_view_carries_the_settled_limits_and_names():
    rules = ch.view(fresh(), None)["rules"]
    assert rules["ingredients"] == ["sugar", "blueberry", "matcha", "cherry", "cocoa"]
    assert rules["wild"] == "saffron"
    assert (rules["hand_limit"], rules["reserve_limit"], rules["two_alike_min"]) == (10, 3, 4)
    assert (rules["winning_points"], rules["customer_points"]) == (15, 3)
    assert rules["tier_names"]["3"] == "Showstoppers"


def test_only_the_viewer_is_told_what_each_card_still_needs():
    # 1-cocoa-7 costs 3 Sugar: one Sugar token and one Saffron leave one short.
    state = with_baker(
        fresh(), 1, tokens={"sugar": 1, "saffron": 1}, reserved=[["1-cocoa-7", False]]
    )
    mine = ch.view(state, 1)["seats"]
    assert mine[1]["short"]["1-cocoa-7"] == 1
    assert "short" not in mine[0]
    assert all("short" not in box for box in ch.view(state, None)["seats"])
    counter = [c for row in ch.view(state, 1)["counter"].values() for c in row if c]
    assert {c["id"] for c in counter} | {"1-cocoa-7"} == set(mine[1]["short"])


def test_shortfall_is_zero_when_saffron_covers_the_rest():
    state = with_baker(
        fresh(), 0, tokens={"sugar": 1, "saffron": 2}, reserved=[["1-cocoa-7", False]]
    )
    assert ch.view(state, 0)["seats"][0]["short"]["1-cocoa-7"] == 0
    assert {"type": "buy", "card": "1-cocoa-7"} in ch.legal_actions(state, 0)


def test_a_points_tie_names_the_baker_who_lost_it_on_cards():
    state = with_baker(fresh(2), 0, points=15, bought=["1-sugar-1", "1-sugar-2"])
    state = with_baker(state, 1, points=15, bought=["1-cocoa-1"])
    state = ch.apply_action(ch.apply_action(state, 0, TAKE), 1, RIVAL_TAKE)
    result = ch.result(state)
    assert (result["winners"], result["lost_tie"], result["order"]) == ([1], [0], [1, 0])
    assert result["ended"] == "points"
    assert ch.view(state, None)["result"] == result


def test_a_shared_win_loses_no_tie():
    state = with_baker(fresh(2), 0, points=16, bought=["1-sugar-1"])
    state = with_baker(state, 1, points=16, bought=["1-cocoa-1"])
    state = ch.apply_action(ch.apply_action(state, 0, TAKE), 1, RIVAL_TAKE)
    assert ch.result(state)["lost_tie"] == []


def test_the_result_says_a_round_of_passes_ended_it():
    state = with_baker(tweak(fresh(2), **EMPTY_TABLE), 1, points=4)
    state = ch.apply_action(state, 0, {"type": "pass"})
    state = ch.apply_action(state, 1, {"type": "pass"})
    result = ch.result(state)
    assert result["ended"] == "passes" and result["order"] == [1, 0]
    assert ch.view(state, 0)["result"] == result


def test_log_events_name_cards_and_customers_but_not_a_rivals_blind_card():
    state = fresh(customers=["pair-0", "trio-0", "pair-3"])
    state = with_baker(state, 0, discounts={"sugar": 4, "blueberry": 4})
    state = ch.apply_action(state, 0, {"type": "reserve", "tier": 1})
    own: Sequence[Mapping[str, Any]] = ch.view(state, 0)["log"]  # the log lines read as JSON
    rival: Sequence[Mapping[str, Any]] = ch.view(state, 1)["log"]
    blind = [e for e in own if e["type"] == "reserve"]
    assert blind[0]["blind"] and blind[0]["name"]
    assert all("name" not in e and "card" not in e for e in rival if e["type"] == "reserve")
    visits = [e for e in rival if e["type"] == "customer"]
    assert [(e["customer"], e["name"]) for e in visits] == [("pair-0", "Lady Meringue")]
    assert ch.view(state, 1)["seats"][0]["customer_names"] == ["Lady Meringue"]
