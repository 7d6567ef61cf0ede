"""Both engines against the contract's promises that lockstep fuzzing found broken.

- `dump`, `view`, `load` and `result` share nothing with the state: a caller that changes what
  it got back (or what it passed to `load`) never changes the state or any later one.
- `new_game` refuses a seed that is not a whole number, unknown options, bad option values and
  an empty or malformed setup with `IllegalAction` and a sentence.
- `deal` writes the setup a seed deals: starting from it is the very game the seed starts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any, cast

import pytest

from games.engines import IllegalAction
from games.engines import cakehalla as ch
from games.engines import midnight_bakery as mb

ENGINES = {"midnight-bakery": (mb, (2, 3, 5, 8)), "cakehalla": (ch, (2, 3, 4))}
SEEDED_GAMES = 8
JUNK = "__junk__"


def scramble(data: Any) -> None:
    """Change every list and dict inside data in place, innermost first."""
    if isinstance(data, list):
        for item in data:
            scramble(item)
        data.append(JUNK)
        if len(data) > 1:
            data[0] = JUNK
    elif isinstance(data, dict):
        for value in list(data.values()):
            scramble(value)
        for key in list(data):
            if not isinstance(data[key], (list, dict)):
                data[key] = JUNK
        data[JUNK] = JUNK


def frozen(data: Any) -> Any:
    """A deep copy by JSON, to compare against later."""
    return json.loads(json.dumps(data))


def handed_out(engine: ModuleType, state: Any) -> list[Any]:
    """Everything the engine hands a caller about this state."""
    seats = range(len(engine.view(state, None)["seats"]))
    out = [engine.dump(state), engine.view(state, None)]
    out += [engine.view(state, seat) for seat in seats]
    out += [engine.legal_actions(state, seat) for seat in seats]
    if engine.is_over(state):
        out.append(engine.result(state))
    return out


@pytest.mark.parametrize("slug", ENGINES)
def test_nothing_handed_out_shares_lists_with_the_state(slug: str) -> None:
    """Many seeded games in lockstep: one whose returned data is scrambled at every step, one
    rebuilt from a JSON copy; both must stay equal to the end and play on identically."""
    engine, sizes = ENGINES[slug]
    rng = random.Random(11)
    checked = 0
    for game in range(SEEDED_GAMES):
        players = sizes[game % len(sizes)]
        state = engine.new_game(players, seed=game)
        for _ in range(400):
            before = frozen(engine.dump(state))
            views_before = frozen([engine.view(state, s) for s in (None, 0, 1)])
            for data in handed_out(engine, state):
                scramble(data)
            assert engine.dump(state) == before
            assert frozen([engine.view(state, s) for s in (None, 0, 1)]) == views_before
            given = frozen(before)
            loaded = engine.load(given)
            scramble(given)
            assert engine.dump(loaded) == before
            checked += 1
            if engine.is_over(state):
                break
            seat = rng.choice(engine.active_seats(state))
            action = rng.choice(engine.legal_actions(state, seat))
            state = engine.apply_action(state, seat, action)
            twin = engine.apply_action(loaded, seat, frozen(action))
            assert engine.dump(twin) == engine.dump(state)
    assert checked > SEEDED_GAMES * 10


def test_midnight_bakery_log_lists_are_not_the_states() -> None:
    """The case the fuzzing found: a keep event's cards and faces, a bake's totals."""
    state = mb.new_game(3, seed=4)
    while not any(e["type"] == "bake_end" for e in state.log):
        for seat in mb.active_seats(state):
            state = mb.apply_action(state, seat, mb.legal_actions(state, seat)[0])
    shown = [mb.dump(state), mb.view(state, 0), mb.view(state, None)]
    for data in cast(list[Mapping[str, Any]], shown):  # each log edited as plain JSON
        for event in data["log"]:
            for key in ("cards", "faces", "totals"):
                if key in event:
                    event[key].append("eclair")
    for event in cast(list[Mapping[str, Any]], state.log):
        for key in ("cards", "faces", "totals"):
            assert "eclair" not in event.get(key, [])


# --- new_game refuses what it cannot play ----------------------------------------------------


@pytest.mark.parametrize("slug", ENGINES)
@pytest.mark.parametrize("seed", [True, False, 1.0, 2.5, "7", None, [1], b"1"])
def test_a_seed_that_is_not_a_whole_number_is_refused(slug: str, seed: object) -> None:
    engine, _ = ENGINES[slug]
    with pytest.raises(IllegalAction, match="seed must be a whole number"):
        engine.new_game(2, seed=seed)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"pasing": "next"}, "no option called 'pasing'"),
        ({"passing": "next", "speed": 2}, "no option called 'speed'"),
        ({"passing": "sideways"}, "Passing must be Alternate or Next"),
        ({"passing": None}, "Passing must be Alternate or Next"),
        ({"passing": ["next"]}, "Passing must be Alternate or Next"),
        ("next", "options must be a dictionary"),
        ([("passing", "next")], "options must be a dictionary"),
    ],
)
def test_midnight_bakery_refuses_unknown_options_and_bad_values(options: Any, said: str) -> None:
    with pytest.raises(IllegalAction, match=said):
        mb.new_game(3, seed=1, options=options)


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        ({}, "must give the deck"),
        ({"deck": "croissant"}, "list of card faces or card ids"),
        ({"deck": ["croissant", 3]}, "list of card faces or card ids"),
        ({"deck": ["croissant", "eclair"]}, "no card called 'eclair'"),
        ({"deck": ["croissant", "macaron-01"]}, "faces or card ids, not both"),
        ({"deck": ["macaron-01", "macaron-01"]}, "holds macaron-01 twice"),
        ({"deck": ["croissant"], "shuffle": True}, "has no 'shuffle'"),
        ({"deck": ["croissant"], "rng": -1}, "random stream"),
        ({"deck": ["croissant"], "rng": 2**64}, "random stream"),
        ({"deck": ["croissant"], "rng": "1"}, "random stream"),
        (["croissant"], "setup must be a dictionary"),
    ],
)
def test_midnight_bakery_refuses_an_empty_or_malformed_setup(setup: Any, said: str) -> None:
    with pytest.raises(IllegalAction, match=said):
        mb.new_game(3, seed=1, setup=setup)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"pasing": "next"}, "no option called 'pasing'"),
        ({"passing": "next"}, "no option called 'passing'"),
        ("fast", "options must be a dictionary"),
    ],
)
def test_cakehalla_refuses_every_option(options: Any, said: str) -> None:
    with pytest.raises(IllegalAction, match=said):
        ch.new_game(3, seed=1, options=options)


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        ({}, "must give piles, customers or bakers"),
        ([], "setup must be a dictionary"),
        ("piles", "setup must be a dictionary"),
        ({"deck": ["1-sugar-1"]}, "only give piles, customers and bakers"),
        ({"piles": {}}, 'keyed "1", "2" and "3"'),
        ({"piles": {"4": []}}, 'keyed "1", "2" and "3"'),
        ({"piles": {"1": "1-sugar-1"}}, "must be a list of card ids"),
        ({"piles": {"1": ["2-sugar-1"]}}, "is not a tier 1 card"),
        ({"customers": ["pair-0"]}, "exactly 4 customers"),
    ],
)
def test_cakehalla_refuses_an_empty_or_malformed_setup(setup: Any, said: str) -> None:
    with pytest.raises(IllegalAction, match=said):
        ch.new_game(3, seed=1, setup=setup)


@pytest.mark.parametrize("slug", ENGINES)
def test_options_none_or_empty_and_whole_seeds_still_play(slug: str) -> None:
    engine, _ = ENGINES[slug]
    for seed in (0, -5, 2**63 - 1, 2**70):
        assert engine.dump(engine.new_game(2, seed=seed, options={})) == engine.dump(
            engine.new_game(2, seed=seed, options=None)
        )


# --- deal: the setup a seed deals --------------------------------------------------------------


@pytest.mark.parametrize("slug", ENGINES)
def test_a_game_started_from_its_deal_is_the_game_the_seed_starts(slug: str) -> None:
    """Same cards, same ids, same owl stream: and so the same game to the end."""
    engine, sizes = ENGINES[slug]
    rng = random.Random(5)
    for seed in range(12):
        players = sizes[seed % len(sizes)]
        options = {"passing": "next"} if slug == "midnight-bakery" and seed % 2 else None
        setup = engine.deal(players, seed=seed, options=options)
        assert frozen(setup) == setup
        from_seed = engine.new_game(players, seed=seed, options=options)
        from_setup = engine.new_game(players, seed=seed, options=options, setup=frozen(setup))
        while True:
            assert engine.dump(from_setup) == engine.dump(from_seed)
            if engine.is_over(from_seed):
                break
            seat = rng.choice(engine.active_seats(from_seed))
            action = rng.choice(engine.legal_actions(from_seed, seat))
            from_seed = engine.apply_action(from_seed, seat, action)
            from_setup = engine.apply_action(from_setup, seat, action)


def test_midnight_bakery_deal_lists_card_ids_and_the_owls_stream() -> None:
    setup = mb.deal(2, seed=9)
    assert set(setup) == {"deck", "rng"}
    assert len(setup["deck"]) == len(set(setup["deck"])) == 106
    assert all(card.rsplit("-", 1)[1].isdigit() for card in setup["deck"])
    other_stream = mb.new_game(2, seed=9, setup={**setup, "rng": setup["rng"] ^ 1})
    assert mb.dump(other_stream)["deck"] == mb.dump(mb.new_game(2, seed=9))["deck"]


def test_a_cakehalla_snapshot_from_before_the_seat_order_was_dropped_still_loads() -> None:
    """Running games keep snapshots that hold a seat_order; load ignores it and plays on."""
    state = ch.new_game(3, seed=2)
    old = {**ch.dump(state), "seat_order": [2, 0, 1]}
    loaded = ch.load(old)
    assert ch.dump(loaded) == ch.dump(state)
    action = ch.legal_actions(loaded, 0)[0]
    assert ch.dump(ch.apply_action(loaded, 0, action)) == ch.dump(ch.apply_action(state, 0, action))
    assert "seat_order" not in ch.view(loaded, None)
