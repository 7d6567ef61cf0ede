"""Random play over many seeded games, checking the rules' invariants at every step."""

import json
import os
import random
from collections.abc import Mapping
from typing import Any

import pytest

from games.engines import cakehalla as ch

INGS = ("sugar", "blueberry", "matcha", "cherry", "cocoa", "saffron")
# Games a table size plays in `make test` (600 in all); a deeper run sets CAKEHALLA_GAMES.
GAMES_PER_SIZE = int(os.environ.get("CAKEHALLA_GAMES", "200"))
FULL_GAMES_PER_SIZE = int(os.environ.get("CAKEHALLA_FULL_GAMES", "10"))
CHUNKS = 4
MAX_STEPS = 3000


def supply(view: Mapping[str, Any]) -> list[int]:
    """Each ingredient in the market plus in every baker's hands."""
    return [
        view["market"][ing] + sum(seat["ingredients"][ing] for seat in view["seats"])
        for ing in INGS
    ]


def expected_payment(view: Mapping[str, Any], seat: int, card_id: str) -> list[int]:
    """Cost minus discounts, ordinary ingredients first and Saffron for the shortfall."""
    me = view["seats"][seat]
    cards = [c for row in view["counter"].values() for c in row if c] + me["reserved"]
    card = next(c for c in cards if c.get("id") == card_id)
    paid = [0] * 6
    for i, ing in enumerate(INGS[:5]):
        price = max(0, card["cost"].get(ing, 0) - me["discounts"][ing])
        paid[i] = min(price, me["ingredients"][ing])
        paid[5] += price - paid[i]
    return paid


def hidden_ids(data: Mapping[str, Any], seat: int | None) -> set[str]:
    """Card ids that seat must not see: the piles, and rivals' blind reservations until the end."""
    hidden = {c for pile in data["piles"] for c in pile}
    for s, baker in enumerate(data["bakers"]):
        if s != seat and not data["over"]:
            hidden |= {c for c, blind in baker["reserved"] if blind}
    return hidden


def check_views(state, players: int) -> None:
    """No view shows the pile order, rivals' blind cards or the seed."""
    data = ch.dump(state)
    for seat in [None, *range(players)]:
        text = json.dumps(ch.view(state, seat))
        assert '"rng"' not in text and '"seed"' not in text
        for card_id in hidden_ids(data, seat):
            assert f'"{card_id}"' not in text, (seat, card_id)


def check_round_trip(state) -> None:
    """dump is JSON-ready and load(dump(s)) is the same state."""
    data = json.loads(json.dumps(ch.dump(state)))
    again = ch.load(data)
    assert ch.dump(again) == data
    assert ch.legal_actions(again, ch.active_seats(again)[0]) == ch.legal_actions(
        state, ch.active_seats(state)[0]
    )


def play(players: int, seed: int, full: bool) -> None:
    """One random game, checked step by step."""
    rnd = random.Random(seed)
    state = ch.new_game(players, seed=seed)
    now = ch.view(state, None)
    total = supply(now)
    assert total == [now["market"]["sugar"]] * 5 + [5]
    turns = [0] * players
    visits_this_turn = 0
    played: list[tuple[int, ch.Action]] = []
    for _ in range(MAX_STEPS):
        if ch.is_over(state):
            break
        (seat,) = ch.active_seats(state)
        assert all(ch.legal_actions(state, s) == [] for s in range(players) if s != seat)
        legal = ch.legal_actions(state, seat)
        assert legal
        action = rnd.choice(legal)
        if action["type"] == "take":
            action = {
                "type": "take",
                "ingredients": rnd.sample(action["ingredients"], k=len(action["ingredients"])),
            }
        mine = ch.view(state, seat) if action["type"] == "buy" else now
        before = ch.dump(state) if full else None
        after = ch.apply_action(state, seat, action)
        played.append((seat, action))
        if full:
            assert ch.dump(state) == before
        new = ch.view(after, None)
        assert supply(new) == total
        if action["type"] == "buy":
            paid = expected_payment(mine, seat, action["card"])
            spent = [
                now["seats"][seat]["ingredients"][i] - new["seats"][seat]["ingredients"][i]
                for i in INGS
            ]
            assert spent == paid
        visits_this_turn += len(new["seats"][seat]["customers"]) - len(
            now["seats"][seat]["customers"]
        )
        assert visits_this_turn <= 1
        if ch.is_over(after) or ch.active_seats(after) != [seat]:
            assert sum(new["seats"][seat]["ingredients"].values()) <= 10
            turns[seat] += 1
            visits_this_turn = 0
        else:
            assert new["pending"] in ("return", "customer")
        state, now = after, new
        if full:
            check_views(state, players)
            if not ch.is_over(state):
                check_round_trip(state)
    assert ch.is_over(state), "the game did not end"
    check_end(state, now, turns, players)
    if full:
        replay = ch.new_game(players, seed=seed)
        for seat, action in played:
            replay = ch.apply_action(replay, seat, action)
        assert ch.dump(replay) == ch.dump(state)


def check_end(state, final: Mapping[str, Any], turns: list[int], players: int) -> None:
    """Equal turns when ended on points; most points wins, fewer cards breaks ties."""
    result = ch.result(state)
    why = final["log"][-1]
    assert why["type"] == "over"
    if why["why"] == "points":
        assert len(set(turns)) == 1
        assert max(result["scores"]) >= 15
    else:
        assert final["passes"] >= players
    assert result["scores"] == [s["points"] for s in final["seats"]]
    best = max(zip(result["scores"], (-n for n in result["cards_bought"]), strict=True))
    assert result["winners"] == [
        s for s in range(players) if (result["scores"][s], -result["cards_bought"][s]) == best
    ]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_rule(players, chunk):
    for seed in range(chunk, GAMES_PER_SIZE, CHUNKS):
        play(players, seed, full=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_hide_what_they_must_and_replay_exactly(players):
    for seed in range(FULL_GAMES_PER_SIZE):
        play(players, 10_000 + seed, full=True)


def test_same_seed_same_game_and_different_seeds_differ():
    dumps = [ch.dump(ch.new_game(3, seed=seed)) for seed in (7, 7, 8)]
    assert dumps[0] == dumps[1] != dumps[2]
