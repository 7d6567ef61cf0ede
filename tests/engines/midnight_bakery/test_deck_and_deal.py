"""The deck, card ids, the batch table, seat names, the deal, short deals and the early end."""

from collections import Counter

import pytest

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.cards import (
    BATCH_SIZE,
    LOAVES,
    face_of,
    number_cards,
    standard_faces,
)
from tests.engines.midnight_bakery.helpers import night, play_out_bake

BASE = {
    "croissant": 14,
    "macaron": 14,
    "bun": 14,
    "baguette-1": 6,
    "baguette-2": 11,
    "baguette-3": 7,
    "jam": 5,
    "fruit": 10,
    "chocolate": 5,
    "truffle": 10,
    "glaze": 6,
    "peel": 4,
}
EXTRAS = {
    "croissant": 2,
    "macaron": 2,
    "bun": 2,
    "baguette-1": 1,
    "baguette-2": 1,
    "baguette-3": 1,
    "jam": 1,
    "fruit": 1,
    "chocolate": 1,
    "truffle": 2,
    "glaze": 1,
    "peel": 1,
}


def all_cards(state: mb.State) -> list[str]:
    """Every card the night holds anywhere."""
    cards = list(state.deck) + list(state.discard)
    for group in (state.batches, state.cases, state.truffles):
        for cards_of_seat in group:
            cards += cards_of_seat
    return cards


@pytest.mark.parametrize("bakers", [2, 3, 4, 5])
def test_base_deck_has_106_cards_as_settled(bakers: int) -> None:
    faces = standard_faces(bakers)
    assert len(faces) == 106
    assert Counter(faces) == Counter(BASE)


@pytest.mark.parametrize("bakers", [6, 7, 8])
def test_six_to_eight_bakers_add_the_sixteen_extras(bakers: int) -> None:
    faces = standard_faces(bakers)
    assert len(faces) == 122
    assert Counter(faces) == Counter(BASE) + Counter(EXTRAS)


def test_base_deck_holds_49_loaves() -> None:
    assert sum(LOAVES.get(face, 0) for face in standard_faces(2)) == 49
    assert sum(LOAVES.get(face, 0) for face in standard_faces(6)) == 55


TABLE = [(2, 10), (3, 9), (4, 8), (5, 7), (6, 6), (7, 5), (8, 5)]


@pytest.mark.parametrize(("bakers", "size"), TABLE)
def test_batch_table(bakers: int, size: int) -> None:
    assert BATCH_SIZE[bakers] == size
    view = mb.view(mb.new_game(bakers, seed=11), 0)
    seats = bakers + 1 if bakers == 2 else bakers
    assert [seat["batch_count"] for seat in view["seats"]] == [size] * seats
    assert view["deck_count"] == (106 if bakers < 6 else 122) - size * seats


def test_card_ids_are_unique_and_name_their_face() -> None:
    ids = number_cards(standard_faces(8))
    assert len(set(ids)) == 122
    assert "croissant-01" in ids and "croissant-16" in ids
    assert "baguette-2-11" in ids and "baguette-2-12" in ids
    assert all(face_of(card) in BASE for card in ids)
    assert Counter(face_of(card) for card in ids) == Counter(standard_faces(8))


@pytest.mark.parametrize("bakers", [2, 5, 8])
def test_ids_are_the_same_whatever_the_seed(bakers: int) -> None:
    first = sorted(all_cards(mb.new_game(bakers, seed=1)))
    assert sorted(all_cards(mb.new_game(bakers, seed=987654321))) == first
    assert first == sorted(number_cards(standard_faces(bakers)))


def test_same_seed_same_shuffle_other_seed_other_shuffle() -> None:
    one, again, other = (mb.new_game(4, seed=s) for s in (5, 5, 6))
    assert mb.dump(one) == mb.dump(again)
    assert one.batches != other.batches


def test_unknown_face_in_a_custom_deck_is_refused() -> None:
    with pytest.raises(mb.IllegalAction):
        night(3, ["croissant", "eclair"])


def test_seat_names_in_order_and_the_owl_last() -> None:
    names = [seat["name"] for seat in mb.view(mb.new_game(8, seed=0), 0)["seats"]]
    assert names == ["Flour", "Sugar", "Butter", "Cream", "Spice", "Cocoa", "Honey", "Moon"]
    owl_table = mb.view(mb.new_game(2, seed=0), None)["seats"]
    assert [(seat["name"], seat["owl"]) for seat in owl_table] == [
        ("Flour", False),
        ("Sugar", False),
        ("Night Owl", True),
    ]
    assert [seat["owl"] for seat in mb.view(mb.new_game(3, seed=0), None)["seats"]] == [False] * 3


def test_custom_deck_is_dealt_top_first_whole_batches_in_seat_order() -> None:
    faces = ["croissant"] * 8 + ["macaron"] * 8 + ["bun"] * 8 + ["jam"] * 8 + ["truffle"] * 3
    state = night(4, faces)
    assert [[face_of(c) for c in batch] for batch in state.batches] == [
        ["croissant"] * 8,
        ["macaron"] * 8,
        ["bun"] * 8,
        ["jam"] * 8,
    ]
    assert state.batches[0] == tuple(f"croissant-{i:02d}" for i in range(1, 9))
    assert mb.view(state, 0)["deck_count"] == 3


def test_short_deal_gives_the_rest_to_one_seat_and_nothing_after() -> None:
    state = night(4, ["croissant"] * 8 + ["macaron"] * 8 + ["bun"] * 3)
    assert [len(batch) for batch in state.batches] == [8, 8, 3, 0]
    assert mb.active_seats(state) == [0, 1, 2]
    assert mb.legal_actions(state, 3) == []
    assert mb.view(state, 3)["my_turn"] is False


def test_the_owl_is_dealt_last() -> None:
    state = night(2, ["croissant"] * 10 + ["macaron"] * 10 + ["bun"] * 4)
    assert [seat["batch_count"] for seat in mb.view(state, 0)["seats"]] == [10, 10, 4]
    short = night(2, ["croissant"] * 10 + ["macaron"] * 4)
    assert [seat["batch_count"] for seat in mb.view(short, 0)["seats"]] == [10, 4, 0]


def test_an_empty_deck_ends_the_night_at_once() -> None:
    state = night(3, [])
    assert mb.is_over(state)
    assert mb.active_seats(state) == []
    final = mb.result(state)
    assert final["scores"] == [-3, -3, -3]
    assert final["winners"] == [0, 1, 2]
    assert final["bakes"] == []
    assert state.log[-2]["type"] == "early_end"


def test_night_ends_early_when_the_next_bake_cannot_be_dealt() -> None:
    state = night(3, ["croissant"] * 27)
    assert not mb.is_over(state)
    state = play_out_bake(state)
    assert mb.is_over(state)
    assert len(mb.result(state)["bakes"]) == 1
    assert [event["type"] for event in state.log[-3:]] == ["bake_end", "early_end", "dawn"]
    assert mb.result(state)["scores"] == [16 - 3] * 3


def test_an_early_end_shows_the_last_bake_played() -> None:
    state = play_out_bake(night(3, ["croissant"] * 27))
    assert mb.view(state, 0)["bake"] == 1
    assert state.log[-2]["type"] == "early_end"
    assert state.log[-2]["bake"] == 1


def test_a_one_card_bake_is_played_then_the_night_ends() -> None:
    state = night(3, ["croissant"] * 27 + ["truffle"])
    state = play_out_bake(state)
    assert state.bake == 2
    assert [len(batch) for batch in state.batches] == [1, 0, 0]
    assert mb.active_seats(state) == [0]
    state = mb.apply_action(state, 0, {"type": "keep", "card": "truffle-01"})
    assert mb.is_over(state)
    final = mb.result(state)
    assert len(final["bakes"]) == 2
    assert final["truffles"] == [1, 0, 0]
    assert final["scores"] == [16 + 7, 16 - 3, 16 - 3]
    assert final["winners"] == [0]


@pytest.mark.parametrize("bakers", range(2, 9))
def test_the_standard_deck_always_lasts_three_bakes(bakers: int) -> None:
    state = mb.new_game(bakers, seed=bakers)
    while not mb.is_over(state):
        state = play_out_bake(state)
    assert len(mb.result(state)["bakes"]) == 3
    assert not any(event["type"] == "early_end" for event in state.log)


def test_result_before_dawn_is_refused() -> None:
    with pytest.raises(mb.IllegalAction):
        mb.result(mb.new_game(3, seed=1))


@pytest.mark.parametrize("players", [0, 1, 9, "3", 2.0])
def test_table_size_outside_two_to_eight_is_refused(players: object) -> None:
    with pytest.raises(mb.IllegalAction):
        mb.new_game(players, seed=1)  # type: ignore[arg-type]


def test_unknown_passing_option_is_refused() -> None:
    with pytest.raises(mb.IllegalAction):
        mb.new_game(3, seed=1, options={"passing": "sideways"})


def test_passing_defaults_to_alternate() -> None:
    assert mb.view(mb.new_game(3, seed=1), 0)["passing"] == "alternate"
    assert mb.view(mb.new_game(3, seed=1, options={}), 0)["passing"] == "alternate"
