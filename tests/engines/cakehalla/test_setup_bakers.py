"""A setup's `bakers`: a game started part way (a tutorial's), each baker's holdings given."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import cakehalla as ch

HOLDING = {"tokens": {"blueberry": 2, "saffron": 1}, "bought": ["2-matcha-6", "1-cherry-1"]}


def started(*bakers: Any, **rest: Any) -> Any:
    return ch.new_game(2, seed=7, setup={"bakers": list(bakers), **rest})


def test_given_holdings_set_tokens_discounts_points_and_the_market() -> None:
    state = ch.dump(started(HOLDING, {"reserved": ["3-cherry-3"]}))
    you, rival = state["bakers"]
    assert you["tokens"] == [0, 2, 0, 0, 0, 1]
    assert you["discounts"] == [0, 0, 1, 1, 0]
    assert you["points"] == 3  # the bought cards' points
    assert rival["reserved"] == [["3-cherry-3", False]]  # face up
    assert state["market"] == [4, 2, 4, 4, 4, 4]  # what the bakers hold came from the market
    held = {"2-matcha-6", "1-cherry-1", "3-cherry-3"}
    on_table = {c for pile in state["piles"] for c in pile} | {
        c for row in state["counter"] for c in row
    }
    assert not held & on_table  # a shuffled pile leaves out what the bakers hold


def test_the_seed_deals_no_holdings_and_a_game_without_them_starts_empty() -> None:
    assert "bakers" not in ch.deal(2, seed=7)
    plain = ch.dump(ch.new_game(2, seed=7, setup=ch.deal(2, seed=7)))
    assert plain == ch.dump(ch.new_game(2, seed=7))
    assert all(b["points"] == 0 and not b["bought"] for b in plain["bakers"])


def test_a_game_started_part_way_plays_on_under_the_same_rules() -> None:
    state = started(HOLDING, {})
    state = ch.apply_action(state, 0, {"type": "buy", "card": state_card(state)})
    assert ch.dump(ch.load(ch.dump(state))) == ch.dump(state)


def state_card(state: Any) -> str:
    """A face-up card the first baker can buy now."""
    return next(a["card"] for a in ch.legal_actions(state, 0) if a["type"] == "buy")


@pytest.mark.parametrize(
    ("bakers", "words"),
    [
        ([HOLDING], "exactly 2 bakers"),
        ([{"cards": []}, {}], "only be given"),
        ([{"tokens": {"gold": 1}}, {}], "is not an ingredient"),
        ([{"tokens": {"sugar": -1}}, {}], "is not an ingredient"),
        ([{"tokens": {"sugar": 4, "cocoa": 4, "matcha": 3}}, {}], "at most 10"),
        ([{"tokens": {"sugar": 3}}, {"tokens": {"sugar": 2}}], "more of an ingredient"),
        ([{"bought": ["9-x"]}, {}], "is not a card"),
        ([{"bought": ["1-sugar-1"]}, {"reserved": ["1-sugar-1"]}], "twice"),
        ([{"reserved": ["1-sugar-1", "1-sugar-2", "1-sugar-3", "1-sugar-4"]}, {}], "at most 3"),
        ([{"bought": ["3-sugar-4", "3-blueberry-4", "3-matcha-4"]}, {}], "below 15"),
    ],
)
def test_bad_holdings_are_refused_in_words(bakers: list[Any], words: str) -> None:
    with pytest.raises(ch.IllegalAction, match=words):
        started(*bakers)


def test_a_card_both_held_and_in_a_given_pile_is_refused() -> None:
    with pytest.raises(ch.IllegalAction, match="in a pile too"):
        started({"bought": ["1-sugar-1"]}, {}, piles={"1": ["1-sugar-1", "1-sugar-2"]})
