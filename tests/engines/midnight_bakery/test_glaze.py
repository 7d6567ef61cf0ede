"""Honey Glaze: waiting glazes, the best tart, oldest first, with a Peel, lost at bake end."""

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.cards import number_cards
from games.engines.midnight_bakery.filing import best_unglazed_tart, file_cards, match_glazes
from tests.engines.midnight_bakery.helpers import (
    Step,
    glazed_faces,
    night,
    play_out_bake,
    play_plan,
    symmetric,
)

Plan = list[Step]


def padded(plan: Plan, size: int = 9) -> Plan:
    """A plan filled up with croissants to a full batch."""
    count = sum(1 if isinstance(step, str) else 2 for step in plan)
    return plan + ["croissant"] * (size - count)


def run(plan: Plan) -> list[mb.State]:
    """Three bakers all follow the plan; the state after each pick."""
    full = padded(plan)
    return list(play_plan(night(3, symmetric(3, full)), full))


def waiting(state: mb.State, seat: int = 0) -> int:
    """Waiting glazes in a seat's case, as a rival sees it."""
    return int(mb.view(state, (seat + 1) % 3)["seats"][seat]["waiting_glazes"])


def test_glaze_without_a_tart_waits_for_the_next_tart() -> None:
    states = run(["glaze", "croissant", "jam"])
    assert waiting(states[0]) == 1 and glazed_faces(states[0], 0) == []
    assert waiting(states[1]) == 1
    assert waiting(states[2]) == 0 and glazed_faces(states[2], 0) == ["jam"]


def test_glaze_lands_on_the_best_unglazed_tart_already_in_the_case() -> None:
    states = run(["jam", "chocolate", "fruit", "glaze", "glaze", "glaze", "glaze"])
    assert glazed_faces(states[3], 0) == ["chocolate"]
    assert glazed_faces(states[4], 0) == ["chocolate", "fruit"]
    assert glazed_faces(states[5], 0) == ["jam", "chocolate", "fruit"]
    assert waiting(states[6]) == 1
    assert mb.result(play_out_bake(states[6]))["bakes"][0][0]["tart"] == 1 + 3 + 2 + 12


def test_several_waiting_glazes_fill_oldest_first() -> None:
    states = run(["glaze", "glaze", "chocolate"])
    kept = [e["cards"][0] for e in states[2].log if e["type"] == "keep" and e["seat"] == 0]
    assert states[1].waiting[0] == (kept[0], kept[1])
    assert states[2].waiting[0] == (kept[1],)
    assert glazed_faces(states[2], 0) == ["chocolate"]


def test_glaze_and_tart_taken_with_a_peel_count_as_kept_together_in_either_order() -> None:
    for pair in (("glaze", "chocolate"), ("chocolate", "glaze")):
        states = run(["peel", "jam", pair])
        assert glazed_faces(states[2], 0) == ["chocolate"]
        assert waiting(states[2]) == 0


def test_peel_glaze_goes_to_the_better_tart_already_in_the_case() -> None:
    states = run(["peel", "chocolate", ("glaze", "jam")])
    assert glazed_faces(states[2], 0) == ["chocolate"]


def test_waiting_glazes_are_lost_at_the_end_of_the_bake() -> None:
    bake_one = padded(["glaze"])
    bake_two = padded(["jam"])
    state = night(3, symmetric(3, bake_one) + symmetric(3, bake_two))
    state = list(play_plan(state, bake_one))[-1]
    assert state.bake == 2
    assert mb.view(state, 0)["bakes"][0][0]["tart"] == 0
    assert all(seat["waiting_glazes"] == 0 for seat in mb.view(state, 0)["seats"])
    state = next(iter(play_plan(state, bake_two)))
    assert glazed_faces(state, 0) == []
    assert mb.result(play_out_bake(state))["bakes"][1][0]["tart"] == 1


def test_best_unglazed_tart_prefers_chocolate_then_fruit_then_jam_then_earliest() -> None:
    jam, fruit, choc, fruit2 = number_cards(["jam", "fruit", "chocolate", "fruit"])
    assert best_unglazed_tart((jam, fruit, choc, fruit2), frozenset()) == choc
    assert best_unglazed_tart((jam, fruit, choc, fruit2), frozenset({choc})) == fruit
    assert best_unglazed_tart((jam, fruit, choc, fruit2), frozenset({choc, fruit})) == fruit2
    assert best_unglazed_tart((jam,), frozenset({jam})) is None


def test_match_glazes_uses_oldest_glaze_first() -> None:
    jam, glaze_a, glaze_b = number_cards(["jam", "glaze", "glaze"])
    glazed, left = match_glazes((glaze_a, glaze_b, jam), frozenset(), (glaze_a, glaze_b))
    assert glazed == frozenset({jam})
    assert left == (glaze_b,)


def test_file_cards_sends_truffles_to_the_box() -> None:
    truffle, glaze, fruit = number_cards(["truffle", "glaze", "fruit"])
    case, glazed, left, box = file_cards((), frozenset(), (), (), (truffle, glaze, fruit))
    assert case == (glaze, fruit)
    assert glazed == frozenset({fruit})
    assert left == ()
    assert box == (truffle,)
