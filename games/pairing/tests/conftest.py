"""Quick pairing's tests see the suite's shared fixtures (the clock too) through the root
conftest.py. (Its browser test is with the others in tests/e2e/, so the
whole suite starts one browser-test site, not two.)"""

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """No runner of their own may run the pairing pass and the other sweeps under these tests'
    feet (a socket test would start one): bots move inline in this folder, and the runner never
    starts (tests/fixtures.py: bots_inline)."""
