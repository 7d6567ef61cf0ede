"""Every malformed or illegal action raises IllegalAction and leaves the state untouched."""

from typing import Any

import pytest

from games.engines import IllegalAction
from games.engines import midnight_bakery as mb
from tests.engines.midnight_bakery.helpers import crafted, keep, pick, play_out_bake

STATE = crafted(
    3,
    batches=[("croissant-01", "bun-01", "jam-01"), ("macaron-01", "fruit-01"), ("glaze-01",)],
    cases=[(), ("peel-01",), ()],
)

MALFORMED: list[tuple[str, Any]] = [
    ("not an object", "keep croissant-01"),
    ("a list", ["keep", "croissant-01"]),
    ("None", None),
    ("no type", {"card": "croissant-01"}),
    ("unknown type", {"type": "take", "card": "croissant-01"}),
    ("type as a list", {"type": ["keep"], "card": "croissant-01"}),
    ("type as an object", {"type": {"keep": 1}, "card": "croissant-01"}),
    ("extra field", {"type": "keep", "card": "croissant-01", "why": "hungry"}),
    ("keep with cards", {"type": "keep", "cards": ["croissant-01"]}),
    ("keep without card", {"type": "keep"}),
    ("card as int", {"type": "keep", "card": 1}),
    ("card as list", {"type": "keep", "card": ["croissant-01"]}),
    ("card as None", {"type": "keep", "card": None}),
    ("card from a rival batch", keep("macaron-01")),
    ("an id not in the game", keep("croissant-99")),
    ("a face, not an id", keep("croissant")),
    ("peel without a peel", {"type": "peel", "cards": ["croissant-01", "bun-01"]}),
]

MALFORMED_PEEL: list[tuple[str, Any]] = [
    ("one card", {"type": "peel", "cards": ["macaron-01"]}),
    ("three cards", {"type": "peel", "cards": ["macaron-01", "fruit-01", "croissant-01"]}),
    ("the same card twice", {"type": "peel", "cards": ["macaron-01", "macaron-01"]}),
    ("a card not in the batch", {"type": "peel", "cards": ["macaron-01", "croissant-01"]}),
    ("cards as a string", {"type": "peel", "cards": "macaron-01,fruit-01"}),
    ("cards as a tuple of ints", {"type": "peel", "cards": [1, 2]}),
    ("cards holding lists", {"type": "peel", "cards": [["macaron-01"], "fruit-01"]}),
    ("cards as an object", {"type": "peel", "cards": {"macaron-01": 1, "fruit-01": 2}}),
    ("peel with card", {"type": "peel", "card": "macaron-01"}),
    ("peel with card and cards", {"type": "peel", "card": "x", "cards": ["macaron-01"]}),
]


def assert_refused(state: mb.State, seat: Any, action: Any) -> None:
    """The action raises IllegalAction with a sentence, and the state is as it was."""
    before = mb.dump(state)
    with pytest.raises(IllegalAction) as caught:
        mb.apply_action(state, seat, action)
    message = str(caught.value)
    assert message[:1].isupper() and message.endswith(".")
    assert mb.dump(state) == before


@pytest.mark.parametrize(("why", "action"), MALFORMED, ids=[w for w, _ in MALFORMED])
def test_malformed_keep_is_refused(why: str, action: Any) -> None:
    assert_refused(STATE, 0, action)


@pytest.mark.parametrize(("why", "action"), MALFORMED_PEEL, ids=[w for w, _ in MALFORMED_PEEL])
def test_malformed_peel_is_refused(why: str, action: Any) -> None:
    assert_refused(STATE, 1, action)


@pytest.mark.parametrize("seat", [-1, 3, 4, True, "0", None, 0.0])
def test_no_baker_in_that_seat(seat: Any) -> None:
    assert_refused(STATE, seat, keep("croissant-01"))
    assert mb.legal_actions(STATE, seat) == []


def test_the_owl_seat_cannot_act() -> None:
    state = mb.new_game(2, seed=3)
    assert_refused(state, 2, keep(state.batches[2][0]))


def test_a_locked_choice_cannot_be_changed_or_repeated() -> None:
    state = mb.apply_action(STATE, 0, keep("croissant-01"))
    assert mb.legal_actions(state, 0) == []
    assert_refused(state, 0, keep("bun-01"))
    assert_refused(state, 0, keep("croissant-01"))


def test_a_baker_with_an_empty_batch_sits_out() -> None:
    state = pick(STATE, {})
    assert [len(b) for b in state.batches] == [0, 2, 1]
    assert mb.active_seats(state) == [1, 2]
    assert_refused(state, 0, keep(state.batches[1][0]))


def test_no_action_after_dawn() -> None:
    state = mb.new_game(3, seed=1)
    while not mb.is_over(state):
        state = play_out_bake(state)
    assert mb.active_seats(state) == []
    assert all(mb.legal_actions(state, seat) == [] for seat in range(3))
    assert_refused(state, 0, keep("croissant-01"))


def test_apply_action_never_changes_the_old_state() -> None:
    state = mb.new_game(2, seed=5)
    before = mb.dump(state)
    locked = mb.apply_action(state, 0, keep(state.batches[0][0]))
    after = mb.apply_action(locked, 1, keep(state.batches[1][0]))
    assert mb.dump(state) == before
    assert locked.pick == 1 and after.pick == 2


def test_every_legal_action_is_accepted_in_either_peel_order() -> None:
    for action in mb.legal_actions(STATE, 1):
        mb.apply_action(STATE, 1, action)
        if action["type"] == "peel":
            mb.apply_action(STATE, 1, {"type": "peel", "cards": action["cards"][::-1]})
