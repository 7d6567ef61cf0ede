"""The tests of games/admin/ and moderation (games/services/moderation.py, games/web/moderation.py):
what staff may see and do."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Games are played to their end through the services: bots move inline in this folder
    (tests/fixtures.py: bots_inline)."""
