"""High Card's test: a third game registered by one call, played through the services, a
table's socket and the replay."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The test reads the bot's card as soon as a service returns: bots move inline in this
    folder (tests/fixtures.py: bots_inline)."""
