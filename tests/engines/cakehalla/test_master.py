"""The master: legal from its own view, blind to what that view hides, and weighing every action."""

import random
from typing import Any, cast

from games.engines import cakehalla as ch
from games.engines.cakehalla.bots import BOTS
from games.engines.cakehalla.master import MASTER_SECONDS, choose_master, weigh, with_budget
from tests.engines.cakehalla.helpers import fresh, with_baker

TINY = with_budget(0.0)  # one pass over the sampled tables a decision: the least it thinks


def test_master_is_the_last_and_strongest_level():
    assert list(BOTS)[-1] == "master"
    assert BOTS["master"] is choose_master
    assert MASTER_SECONDS == 0.25


def test_master_plays_legally_in_every_position_of_many_games():
    decisions = 0
    for seed in range(5):
        players = (2, 3, 4, 2, 3)[seed]
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
    assert decisions > 100


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
    assert sum(w.visits for w in budgeted) == few  # a spent budget still weighs each once


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
