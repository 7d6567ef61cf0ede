"""The challenges' tests see the suite's shared fixtures through the root conftest.py."""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """House bots at a challenge's table answer at once (tests/fixtures.py: bots_inline)."""
