"""The tests of games/services/ (one module or two a file): what a service changes, and when."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """These tests read the bots' answers as soon as a service returns: bots move inline in this
    folder (tests/fixtures.py: bots_inline). test_deadlines.py puts the runner's path back to
    test the sweep and timers that fire deadlines."""
