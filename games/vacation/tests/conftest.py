"""The vacation's tests see the suite's shared fixtures through the root conftest.py."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The tables are read as soon as a service returns: bots move inline in this folder
    (tests/fixtures.py: bots_inline)."""
