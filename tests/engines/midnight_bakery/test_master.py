"""The master baker: legal everywhere, blind to what its seat cannot see, and sound in its sums."""

import json
import os
import random
from collections.abc import Iterable

import pytest

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.bots import BOTS, choose_greedy
from games.engines.midnight_bakery.cards import face_of
from games.engines.midnight_bakery.master import (
    MASTER_SECONDS,
    choice_of,
    weigh,
    with_budget,
)
from games.engines.midnight_bakery.playout import Night, pick
from games.engines.midnight_bakery.sampling import (
    passed_batches,
    public_night,
    remembered,
    unseen_faces,
)
from games.engines.midnight_bakery.shapes import Action
from games.engines.weighed import Weighed
from tests.engines.midnight_bakery.helpers import crafted


def weighed(
    state: mb.State, seat: int = 0, nights: int = 40, seed: int = 5
) -> list[Weighed[Action]]:
    """The master's weighing of this seat's choices, over a fixed number of played-out nights."""
    shown, legal = mb.view(state, seat), mb.legal_actions(state, seat)
    return weigh(shown, legal, random.Random(seed), iterations=nights)


def test_master_is_the_strongest_level() -> None:
    assert list(BOTS)[-1] == "master"
    assert MASTER_SECONDS == 0.25


@pytest.mark.parametrize("bakers", [2, 3, 4, 6, 8])
def test_master_plays_whole_nights_legally_from_a_json_view(bakers: int) -> None:
    """The master in one seat on a tiny budget, greedy elsewhere; every choice is legal."""
    quick = with_budget(0.002)
    for seed in range(2):
        rng = random.Random(seed)
        state = mb.new_game(bakers, seed=seed)
        master = seed % bakers
        while not mb.is_over(state):
            for seat in mb.active_seats(state):
                legal = mb.legal_actions(state, seat)
                shown = json.loads(json.dumps(mb.view(state, seat)))
                bot = quick if seat == master else choose_greedy
                action = bot(shown, legal, rng)
                assert action in legal
                state = mb.apply_action(state, seat, action)
        assert len(mb.result(state)["bakes"]) == 3


def scrambled(state: mb.State, seat: int, seed: int, known: Iterable[int] = ()) -> mb.State:
    """The same night as this seat sees it (and remembers: its `known` batches stay), the cards
    it cannot see dealt another way: the other batches and the deck swap their cards (each keeps
    its size), and the owl's stream moves."""
    kept = {seat, *known}
    hidden = [
        card for other, batch in enumerate(state.batches) if other not in kept for card in batch
    ]
    hidden += state.deck
    random.Random(seed).shuffle(hidden)
    new = state.clone()
    batches = []
    for other, batch in enumerate(state.batches):
        if other in kept:
            batches.append(batch)
        else:
            batches.append(tuple(hidden[: len(batch)]))
            del hidden[: len(batch)]
    new.batches = tuple(batches)
    new.deck = tuple(hidden)
    new.rng = state.rng ^ 0x5DEECE66D
    return new


@pytest.mark.parametrize("bakers", [2, 4])
def test_master_decides_the_same_whatever_the_hidden_cards(bakers: int) -> None:
    """Two nights that look the same from the seat but hide different cards: same choice."""
    state = mb.new_game(bakers, seed=11)
    rng = random.Random(3)
    for _ in range(3):  # a few picks in, so batches have passed and cases hold cards
        for seat in mb.active_seats(state):
            legal = mb.legal_actions(state, seat)
            state = mb.apply_action(state, seat, choose_greedy(mb.view(state, seat), legal, rng))
    other = scrambled(state, 0, seed=99)
    assert other.batches != state.batches and other.deck != state.deck
    assert mb.view(other, 0) == mb.view(state, 0)
    assert weighed(other) == weighed(state)
    first = with_budget(0.01)
    # on a time budget the count of nights may differ; the seat's view alone is all it reads
    assert first(mb.view(other, 0), mb.legal_actions(other, 0), random.Random(1)) in (
        mb.legal_actions(state, 0)
    )


def test_remembering_master_decides_the_same_whatever_it_could_not_see() -> None:
    """With its memory the seat knows the batches it passed; the rest, scrambled, changes
    nothing."""
    state = mb.new_game(4, seed=12)
    rng = random.Random(4)
    seen: list[mb.View] = []
    for _ in range(2):
        seen.append(mb.view(state, 0))
        for seat in mb.active_seats(state):
            legal = mb.legal_actions(state, seat)
            state = mb.apply_action(state, seat, choose_greedy(mb.view(state, seat), legal, rng))
    shown = mb.view(state, 0)
    memory = remembered([*seen, shown])
    known = passed_batches(shown, memory)
    assert len(known) == 2  # two batches passed on; the third other batch is still unseen
    other = scrambled(state, 0, seed=7, known=known)
    assert other.batches[3] != state.batches[3] and mb.view(other, 0) == shown
    legal = mb.legal_actions(state, 0)

    def weigh_with_memory(night: mb.State) -> list[Weighed[Action]]:
        return weigh(mb.view(night, 0), legal, random.Random(2), iterations=40, memory=memory)

    assert weigh_with_memory(other) == weigh_with_memory(state)


def test_weigh_lists_every_distinct_choice_best_first() -> None:
    state = crafted(
        2,
        batches=[
            ("macaron-01", "macaron-02", "jam-01", "bun-01", "truffle-01"),
            ("bun-02", "bun-03", "croissant-01", "fruit-01", "glaze-01"),
            ("baguette-3-01", "chocolate-01", "peel-02", "croissant-02", "bun-04"),
        ],
        cases=[("peel-01",), (), ()],
    )
    legal = mb.legal_actions(state, 0)
    ranking = weighed(state, nights=300)
    assert {choice_of(w.action) for w in ranking} == {choice_of(a) for a in legal}
    assert len(ranking) == len({choice_of(a) for a in legal})  # 5 keeps and 9 Peel pairs
    assert all(w.action in legal for w in ranking)
    assert all(w.visits >= 1 and 0.0 <= w.win <= 1.0 and -3 <= w.expected < 150 for w in ranking)
    assert sum(w.visits for w in ranking) == 300
    finalists = [w for w in ranking if w.visits == ranking[0].visits]
    assert ranking[0].win >= max(w.win for w in finalists) - 0.2  # best first, by wins mostly


def test_the_same_seed_and_count_weigh_the_same() -> None:
    state = mb.new_game(4, seed=2)
    assert weighed(state, seed=8) == weighed(state, seed=8)


WEIGH_IN_A_PROCESS = """
import json, random
from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.master import weigh
state = mb.new_game(4, seed=2)
view, legal = mb.view(state, 0), mb.legal_actions(state, 0)
weighed = weigh(view, legal, random.Random(8), iterations=60)
print(json.dumps([(w.action, w.expected, w.visits) for w in weighed]))
"""


def test_every_process_weighs_the_same_whatever_its_hash_seed() -> None:
    """A review's decision is weighed in a worker process (games/thinking.py) with a hash seed of
    its own: no set's order may reach the dice."""
    import subprocess
    import sys

    answers = {
        subprocess.run(
            [sys.executable, "-c", WEIGH_IN_A_PROCESS],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(answers) == 1, answers


def test_more_budget_plays_more_nights() -> None:
    state = mb.new_game(4, seed=4)
    shown, legal = mb.view(state, 1), mb.legal_actions(state, 1)
    short = weigh(shown, legal, random.Random(0), seconds=0.0)
    longer = weigh(shown, legal, random.Random(0), seconds=0.05)
    assert sum(w.visits for w in short) == len({choice_of(a) for a in legal})  # one round
    assert sum(w.visits for w in longer) > 2 * sum(w.visits for w in short)


def last_pick(batch: tuple[str, str], case: tuple[str, ...]) -> mb.State:
    """Bake 3 with two cards left in each of three batches: this pick and one more end the night."""
    return crafted(
        3,
        bake=3,
        batches=[batch, ("bun-01", "croissant-05"), ("jam-01", "fruit-01")],
        cases=[case, (), ()],
        truffles=[(), ("truffle-09",), ()],
    )


def test_master_completes_three_macarons_at_the_end() -> None:
    state = last_pick(("jam-02", "macaron-03"), ("macaron-01", "macaron-02"))
    best = weighed(state)[0]
    assert best.action == {"type": "keep", "card": "macaron-03"}


def test_master_escapes_the_empty_truffle_box() -> None:
    """Without a truffle the night costs 3; a lone croissant pays nothing."""
    state = last_pick(("croissant-01", "truffle-01"), ("bun-05",))
    ranking = weighed(state)
    assert ranking[0].action == {"type": "keep", "card": "truffle-01"}
    assert ranking[0].expected > ranking[1].expected


def test_a_played_out_night_scores_as_the_engine_does() -> None:
    """The same choices through the engine and through the counts: the same banked points after
    every pick, the same deals, the same dawn (without the owl, whose draws differ)."""
    for bakers, seed in ((4, 1), (3, 2), (6, 3)):
        rng = random.Random(seed)
        state = mb.new_game(bakers, seed=seed)
        night = known_night(state)
        going = True
        while not mb.is_over(state):
            choices: dict[int, tuple[str, ...]] = {}
            for seat in mb.active_seats(state):
                action = rng.choice(mb.legal_actions(state, seat))
                choices[seat] = taken(action)
                state = mb.apply_action(state, seat, action)
            going = pick(night, choices, rng)
            assert night.banked == list(state.banked)
            assert night.truffles == [len(box) for box in state.truffles]
        assert not going


def known_night(state: mb.State) -> Night:
    """The whole night by faces, hidden cards and deck order included (a test may read them)."""
    night = public_night(mb.view(state, 0))
    night.batches = [[face_of(card) for card in batch] for batch in state.batches]
    night.deck = [face_of(card) for card in state.deck]
    return night


def taken(action: Action) -> tuple[str, ...]:
    """The faces an action takes, in order."""
    if action["type"] == "keep":
        return (face_of(action["card"]),)
    return tuple(face_of(card) for card in action["cards"])


def test_the_unseen_cards_are_the_deck_less_what_the_seat_has_seen() -> None:
    state = mb.new_game(4, seed=6)
    for seat in mb.active_seats(state):
        state = mb.apply_action(state, seat, mb.legal_actions(state, seat)[0])
    shown = mb.view(state, 2)
    hidden = [card for seat, b in enumerate(state.batches) if seat != 2 for card in b]
    hidden += state.deck
    assert sorted(unseen_faces(shown)) == sorted(face_of(card) for card in hidden)


@pytest.mark.parametrize("bakers", [2, 4, 5])
def test_a_seat_remembers_the_batches_it_passed_as_they_are_now(bakers: int) -> None:
    """From its own earlier views and the log alone, each batch it passed is known exactly."""
    rng = random.Random(bakers)
    state = mb.new_game(bakers, seed=bakers)
    views: dict[int, list[mb.View]] = {seat: [] for seat in range(bakers)}
    placed = 0
    while not mb.is_over(state):
        for seat in mb.active_seats(state):
            shown = mb.view(state, seat)
            views[seat].append(shown)
            known = passed_batches(shown, remembered(views[seat]))
            for holder, faces in known.items():
                assert faces == sorted(face_of(card) for card in state.batches[holder])
            placed += len(known)
            legal = mb.legal_actions(state, seat)
            state = mb.apply_action(state, seat, choose_greedy(shown, legal, rng))
    assert placed > 20 * bakers


def test_without_memory_nothing_passed_is_placed() -> None:
    state = mb.new_game(4, seed=1)
    for _ in range(2):
        for seat in mb.active_seats(state):
            state = mb.apply_action(state, seat, mb.legal_actions(state, seat)[0])
    assert passed_batches(mb.view(state, 0), {}) == {}
    assert remembered([]) == {}
