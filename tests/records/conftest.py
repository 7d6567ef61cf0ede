"""The tests of games/records/ and what reads the record of finished games: history, replays,
exports, stats, ratings and leaderboards."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Finished games are made through the services against bots: bots move inline in this folder
    (tests/fixtures.py: bots_inline), so a game is over when the call returns."""
