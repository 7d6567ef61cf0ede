"""What each seat may see: its own batch, rivals' counts and locks, public cases, no secrets."""

import json

import pytest

from games.engines import midnight_bakery as mb
from tests.engines.midnight_bakery.helpers import (
    assert_view_keeps_secrets,
    hidden_from,
    keep,
    pick,
    play_out_bake,
    strings_in,
)


@pytest.mark.parametrize("bakers", [2, 3, 6])
def test_each_seat_sees_only_its_own_batch(bakers: int) -> None:
    state = mb.new_game(bakers, seed=bakers)
    for seat in [*range(bakers), None]:
        assert_view_keeps_secrets(state, seat)
    assert [c["id"] for c in mb.view(state, 1)["batch"]] == list(state.batches[1])
    assert all({"id", "face"} <= set(card) for card in mb.view(state, 1)["batch"])


def test_spectator_sees_no_batch() -> None:
    state = mb.new_game(4, seed=2)
    shown = mb.view(state, None)
    assert shown["seat"] is None
    assert shown["batch"] == []
    assert shown["my_turn"] is False and shown["can_peel"] is False
    assert not strings_in(shown) & hidden_from(state, None)
    assert [seat["batch_count"] for seat in shown["seats"]] == [8, 8, 8, 8]


def test_a_locked_card_stays_in_the_batch_marked_and_counted() -> None:
    state = mb.new_game(3, seed=4)
    card = state.batches[0][3]
    state = mb.apply_action(state, 0, keep(card))
    mine = mb.view(state, 0)
    assert [c.get("locked", False) for c in mine["batch"]] == [i == 3 for i in range(9)]
    assert mine["my_turn"] is False
    assert mine["seats"][0]["locked"] is True
    rival = mb.view(state, 1)
    assert rival["seats"][0] == {**rival["seats"][0], "locked": True, "batch_count": 9}
    assert rival["seats"][1]["locked"] is False
    assert card not in json.dumps(rival) and card not in json.dumps(mb.view(state, None))
    assert rival["waiting_for"] == [1, 2]


def test_the_reveal_shows_kept_cards_in_cases_and_log() -> None:
    state = mb.new_game(3, seed=4)
    kept = [state.batches[seat][0] for seat in range(3)]
    state = pick(state, {})
    shown = mb.view(state, None)
    assert [[c["id"] for c in seat["case"]] for seat in shown["seats"]] == [
        [card] if not card.startswith("truffle") else [] for card in kept
    ]
    assert [e["cards"] for e in shown["log"] if e["type"] == "keep"] == [[c] for c in kept]
    assert [s["truffles"] for s in shown["seats"]] == [int(c.startswith("truffle")) for c in kept]
    assert not any(seat["locked"] for seat in shown["seats"])


def test_a_batch_once_passed_is_not_shown_again() -> None:
    state = mb.new_game(3, seed=9)
    first = set(state.batches[0])
    state = pick(state, {0: keep(state.batches[0][0])})
    seen = {c["id"] for c in mb.view(state, 0)["batch"]}
    assert not seen & first


def test_owl_batch_is_hidden_but_its_case_and_truffles_are_public() -> None:
    state = mb.new_game(2, seed=8)
    for _ in range(4):
        state = pick(state, {})
    for seat in (0, 1, None):
        assert_view_keeps_secrets(state, seat)
        owl = mb.view(state, seat)["seats"][2]
        assert owl["owl"] is True and owl["batch_count"] == 6
        assert len(owl["case"]) + owl["truffles"] == 4
        assert owl["banked"] == 0 and owl["locked"] is False


def test_banked_points_show_no_truffle_penalty_during_the_night() -> None:
    state = play_out_bake(mb.new_game(4, seed=12))
    shown = mb.view(state, 0)
    totals = [row["total"] for row in shown["bakes"][0]]
    assert [seat["banked"] for seat in shown["seats"]] == totals
    assert shown["result"] is None
    breakdown = shown["bakes"][0][0]
    assert {"croissant", "macaron", "bun", "tart", "baguette", "total"} <= set(breakdown)


def test_after_dawn_the_view_holds_the_result() -> None:
    state = mb.new_game(3, seed=5)
    while not mb.is_over(state):
        state = play_out_bake(state)
    shown = mb.view(state, 1)
    assert shown["over"] is True
    assert shown["result"] == mb.result(state)
    assert shown["waiting_for"] == [] and shown["batch"] == []


def test_views_hold_no_stream_state_and_no_deck_order() -> None:
    state = mb.new_game(5, seed=77)
    for seat in (0, 4, None):
        shown = mb.view(state, seat)
        assert "rng" not in shown and "deck" not in shown and "seed" not in shown
        assert shown["deck_count"] == len(state.deck)
        assert_view_keeps_secrets(state, seat)


def test_view_of_a_seat_outside_the_table_is_a_spectator_view() -> None:
    state = mb.new_game(2, seed=1)
    assert mb.view(state, 2)["batch"] == []
    assert mb.view(state, 2)["seat"] is None
    assert_view_keeps_secrets(state, 2)


def test_a_views_and_a_dumps_log_share_nothing_with_the_state() -> None:
    """Changing the log a view or a dump gave (its events, their lists of cards) leaves the
    night as it was, and what a load was given is not the loaded night's log either."""
    state = pick(mb.new_game(3, seed=4), {})
    before = json.dumps(mb.dump(state))
    for log in (mb.view(state, 0)["log"], mb.dump(state)["log"]):
        kept = next(e for e in log if e["type"] == "keep")
        kept["cards"].append("stolen")
        kept["text"] = "changed"
    data = mb.dump(state)
    loaded = mb.load(data)
    next(e for e in data["log"] if e["type"] == "keep")["faces"].clear()
    assert json.dumps(mb.dump(state)) == before
    assert json.dumps(mb.dump(loaded)) == before
