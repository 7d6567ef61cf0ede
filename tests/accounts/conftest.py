"""The tests of accounts/: signing up, mail, friends, blocks, reserved names, next pages, and
one's own account (download, delete)."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Tables against bots are made and read at once: bots move inline in this folder
    (tests/fixtures.py: bots_inline)."""
