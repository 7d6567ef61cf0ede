"""The kinds' tests play lessons and hints against the house bots and read the bots' answers as
soon as a service returns: bots move inline in this folder (tests/fixtures.py: bots_inline)."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Bots move right after each service returns (BOT_MOVES = "inline")."""
