"""A whole night (a game from its first deal to its results) against bots: quick games,
every bot level, `manage.py simulate`, and the replay of what was played."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The nights are played by bots in the test's own thread: bots move inline in this folder
    (tests/fixtures.py: bots_inline), so a night is over when the call returns."""
