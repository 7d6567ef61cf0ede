"""The tutorial's tests see the suite's shared fixtures through the root conftest.py. (Its
browser test is with the others in tests/e2e/, so the whole suite starts one browser-test site.)"""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The steps are read as soon as a service returns, the bot's answer made: bots move inline
    in this folder (tests/fixtures.py: bots_inline)."""
