"""Today's engines reproduce every golden game exactly: each frame, the result, the last view."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import cakehalla as ch
from games.engines import midnight_bakery as mb
from games.migrations._legacy_deal import legacy_setup
from tests.golden.games import frame_digest, golden_games, golden_ids

ENGINES: dict[str, Any] = {"midnight-bakery": mb, "cakehalla": ch}
GOLDEN = golden_games()


def test_there_are_golden_games_of_each_kind_old_and_new() -> None:
    kinds = [(g["game"], g["legacy"]) for g in GOLDEN]
    for kind in ENGINES:
        assert kinds.count((kind, True)) >= 3
        assert kinds.count((kind, False)) >= 1


@pytest.mark.parametrize("golden", GOLDEN, ids=golden_ids())
def test_todays_engine_replays_the_golden_game_exactly(golden: dict[str, Any]) -> None:
    engine = ENGINES[golden["game"]]
    assert golden["rules_version"] == engine.RULES_VERSION, "a rules change: see tests/golden"
    players = golden["players"]
    state = engine.new_game(
        players, seed=golden["seed"], options=golden["options"], setup=golden["setup"]
    )
    frames = [frame_digest(engine, state, players)]
    for seat, action in golden["actions"]:
        state = engine.apply_action(state, seat, action)
        frames.append(frame_digest(engine, state, players))
    first_change = next(
        (n for n, (a, b) in enumerate(zip(frames, golden["frames"], strict=False)) if a != b),
        None,
    )
    assert first_change is None, f"frame {first_change} differs from the golden game"
    assert len(frames) == len(golden["frames"])
    assert engine.is_over(state)
    assert engine.result(state) == golden["result"]
    assert engine.view(state, None) == golden["final_view"]


@pytest.mark.parametrize(
    "golden",
    [g for g in GOLDEN if g["legacy"]],
    ids=lambda g: f"{g['game']}-{g['players']}p-{g['seed']}",
)
def test_a_legacy_games_setup_is_what_the_backfill_computes(golden: dict[str, Any]) -> None:
    assert legacy_setup(golden["game"], golden["players"], golden["seed"]) == golden["setup"]


def test_cakehallas_seed_alone_now_deals_other_games_so_the_stored_setup_is_needed() -> None:
    """Dropping the seat-order shuffle changed every Cakehalla deal from a seed."""
    for golden in (g for g in GOLDEN if g["legacy"] and g["game"] == "cakehalla"):
        today = ch.deal(golden["players"], seed=golden["seed"])
        assert today != golden["setup"]


def test_midnight_bakerys_seed_still_deals_its_legacy_games() -> None:
    for golden in (g for g in GOLDEN if g["legacy"] and g["game"] == "midnight-bakery"):
        assert mb.deal(golden["players"], seed=golden["seed"]) == golden["setup"]
