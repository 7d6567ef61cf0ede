"""The tests of games/live/: the sockets' base (socket), the table's socket (consumer, moves,
sessions, caps, origin), the channel layers, group sends and the bot runner."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The socket tests read the bots' answers in the next message: bots move inline in this
    folder (tests/fixtures.py: bots_inline). test_bot_worker.py puts the runner's path back to
    test the runner itself (games/live/runner.py)."""
