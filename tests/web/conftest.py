"""The pages' tests (games/web/)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The pages' tests read the bots' answers as soon as a service returns: bots move inline in
    this folder (tests/fixtures.py: bots_inline)."""
