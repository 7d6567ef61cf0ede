"""The tests of games/kinds/: each game's hints and lesson, and the catalog of kinds."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """A lesson is a tutorial table against one bot, and its tests read the bot's answer as soon
    as the learner's move returns: bots move inline in this folder (tests/fixtures.py:
    bots_inline). Without it the bot's move is left to a runner these tests never start."""
