"""The tests of games/boards/: regions rendered, shared between viewers who see the same, and
redrawn only when what they show moved."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Whole games are played through the services and their boards read after each move: bots
    move inline in this folder (tests/fixtures.py: bots_inline)."""
