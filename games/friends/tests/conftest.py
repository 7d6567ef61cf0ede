"""The friends' tests (games/friends/): requests, blocks, their pages and admin. They see the
suite's shared fixtures through the root conftest.py."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Tables against bots are made and read at once: bots move inline in this folder
    (tests/fixtures.py: bots_inline)."""
