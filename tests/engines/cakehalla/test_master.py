"""The master: legal from its own view, blind to what that view hides, and weighing every action."""

import dataclasses
import pickle
import random
from typing import Any, cast

from games.engines import cakehalla as ch
from games.engines.cakehalla import bots, master
from games.engines.cakehalla.bots import BOTS
from games.engines.cakehalla.master import MASTER_SECONDS, choose_master, weigh, with_budget
from tests.engines.cakehalla.helpers import fresh, with_baker

TINY = with_budget(0.0)  # one pass over the sampled tables a decision: the least it thinks


def test_master_is_the_last_and_strongest_level():
    assert list(BOTS)[-1] == "master"
    assert BOTS["master"] is choose_master
    assert MASTER_SECONDS == 0.25


def test_a_budgeted_master_pickles_to_a_thinking_process():
    state = fresh(2, seed=8)
    legal = ch.legal_actions(state, 0)
    bot = pickle.loads(pickle.dumps(with_budget(0.0)))
    assert bot(ch.view(state, 0), legal, random.Random(1)) in legal
    assert pickle.loads(pickle.dumps(choose_master)) is choose_master


def test_master_plays_legally_in_every_position_of_many_games(monkeypatch):
    for size, breadth in master.BREADTH.items():  # judged as its turn ends: quick, still legal
        monkeypatch.setitem(master.BREADTH, size, dataclasses.replace(breadth, rounds=0))
    decisions = 0
    for seed in range(12):
        players = 2 + seed % 3
        levels = ["random", "greedy", "random", "greedy"][:players]
        levels[seed % players] = "master"
        rnd = random.Random(seed)
        state = ch.new_game(players, seed=seed)
        while not ch.is_over(state):
            seat = ch.active_seats(state)[0]
            legal = ch.legal_actions(state, seat)
            bot = TINY if levels[seat] == "master" else BOTS[levels[seat]]
            action = bot(ch.view(state, seat), legal, rnd)
            assert action in legal
            decisions += levels[seat] == "master"
            state = ch.apply_action(state, seat, action)
    assert decisions > 300


def test_master_decides_from_the_view_alone_so_hidden_cards_change_nothing():
    # Baker 1 reserves blind; baker 2 (the master) must not tell which card it is, nor the piles.
    state = ch.apply_action(ch.new_game(2, seed=9), 0, {"type": "reserve", "tier": 3})
    data = cast(dict[str, Any], ch.dump(state))  # edited as plain JSON
    data["piles"] = [list(reversed(pile)) for pile in data["piles"]]
    hidden = data["bakers"][0]["reserved"][0][0]
    data["bakers"][0]["reserved"][0][0] = data["piles"][2][0]
    data["piles"][2][0] = hidden
    other = ch.load(data)
    assert ch.dump(other) != ch.dump(state)
    assert ch.view(other, 1) == ch.view(state, 1)
    picks = []
    for table in (state, other):
        legal = ch.legal_actions(table, 1)
        weighed = weigh(ch.view(table, 1), legal, random.Random(4), iterations=4)
        picks.append([(w.action, w.expected, w.win, w.visits) for w in weighed])
    assert picks[0] == picks[1]
    assert TINY(ch.view(other, 1), ch.legal_actions(other, 1), random.Random(7)) == TINY(
        ch.view(state, 1), ch.legal_actions(state, 1), random.Random(7)
    )


def test_weigh_returns_every_legal_action_best_first_with_sane_figures():
    state = fresh(3, seed=2)
    legal = ch.legal_actions(state, 0)
    weighed = weigh(ch.view(state, 0), legal, random.Random(1), iterations=6)
    assert sorted(map(str, (w.action for w in weighed))) == sorted(map(str, legal))
    assert all(0 <= w.expected <= 40 and 0 <= w.win <= 1 and w.visits >= 1 for w in weighed)
    visits = [w.visits for w in weighed]
    assert visits == sorted(visits, reverse=True)  # the best stayed in the running longest
    assert visits[0] == 6


def test_more_thinking_plays_out_more_tables():
    state = fresh(2, seed=3)
    legal = ch.legal_actions(state, 0)
    view = ch.view(state, 0)
    few = sum(w.visits for w in weigh(view, legal, random.Random(2), iterations=1))
    many = sum(w.visits for w in weigh(view, legal, random.Random(2), iterations=8))
    assert few == len(legal)
    assert many > few
    budgeted = weigh(view, legal, random.Random(2), seconds=0.0)
    assert len(budgeted) == len(legal)
    assert [w.visits for w in budgeted[: master.BREADTH[2].kept_by_greedy]] == [1] * master.BREADTH[
        2
    ].kept_by_greedy
    assert all(w.visits == 0 and w.win == 0 for w in budgeted[master.BREADTH[2].kept_by_greedy :])


def test_master_buys_the_card_that_wins_before_the_rival_can():
    # Both bakers stand at 14, each with a 1-point card reserved and paid for. Baker 2 (the master)
    # closes the round: buying now ends the game won; anything else lets baker 1 buy too.
    first = {"reserved": ["1-blueberry-8"], "tokens": {"cherry": 4}}
    state = fresh(2, seed=4, bakers=[first, {"reserved": ["1-sugar-8"], "tokens": {"matcha": 4}}])
    state = with_baker(with_baker(state, 0, points=14), 1, points=14)
    state = ch.apply_action(
        state, 0, {"type": "take", "ingredients": ["sugar", "blueberry", "cocoa"]}
    )
    legal = ch.legal_actions(state, 1)
    weighed = weigh(ch.view(state, 1), legal, random.Random(5), iterations=6)
    best = weighed[0]
    assert best.action["type"] == "buy"
    assert best.expected >= 15
    assert best.win == 1
    assert all(w.win <= 0.5 for w in weighed if w.action["type"] != "buy")  # at best a tie
    assert choose_master(ch.view(state, 1), legal, random.Random(5)) == best.action


def test_weighed_to_the_end_the_figures_are_final_points_and_wins():
    state = fresh(2, seed=6)
    for action in (
        {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]},
        {"type": "take", "ingredients": ["cherry", "cocoa", "sugar"]},
    ):
        state = ch.apply_action(state, state.turn, action)
    legal = ch.legal_actions(state, 0)
    weighed = weigh(ch.view(state, 0), legal, random.Random(3), iterations=3, to_end=True)
    assert len(weighed) == len(legal)
    for w in weighed:
        assert w.expected >= 3  # a played-out game ends near 15 for both; nobody stays at nought
        assert w.win in {k / (2 * w.visits) for k in range(2 * w.visits + 1)}  # whole games


def test_at_four_bakers_the_master_starts_from_lookaheads_candidates():
    # Crowded tables: under a budget it weighs greedy's six favourites only, as lookahead does,
    # and halves them only after lookahead's eight tables.
    state = fresh(4, seed=5)
    legal = ch.legal_actions(state, 0)
    view = ch.view(state, 0)
    breadth = master.BREADTH[4]
    assert breadth.kept_by_greedy == bots.LOOKAHEAD_CANDIDATES
    assert breadth.rounds == bots.LOOKAHEAD_ROUNDS
    assert breadth.first_halving == bots.LOOKAHEAD_SAMPLES
    hurried = weigh(view, legal, random.Random(3), seconds=0.0)
    assert [w.visits for w in hurried] == [1] * 6 + [0] * (len(legal) - 6)
    six = [str(w.action) for w in hurried[:6]]
    steady = weigh(view, legal, random.Random(3), iterations=bots.LOOKAHEAD_SAMPLES)
    assert [w.visits for w in steady] == [8] * 6 + [1] * (len(legal) - 6)  # the rest once each
    assert sorted(str(w.action) for w in steady[:6]) == sorted(six)
