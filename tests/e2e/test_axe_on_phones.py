"""axe-core finds no violation at a phone's width (360 px) in German, the longest words (issue
50, item 6): the pages test_axe.py checks at 1280 px (set up at that width), the person's and a
stranger's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import PATIENCE
from tests.e2e.test_axe import choose, pages_to_check, violations

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 780}


def test_axe_finds_no_violation_at_360_px_in_german(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    page, pages = pages_to_check(browser, daphne_site, "axel-phone")
    page.set_viewport_size(PHONE)
    page.goto(base + "/")
    choose(page, "de")
    found: dict[str, list[str]] = {}
    for path in pages:
        page.goto(base + path)
        page.wait_for_load_state("load")
        found[path] = violations(page)
    stranger = browser.new_context(viewport=PHONE).new_page()
    stranger.set_default_timeout(PATIENCE)
    stranger.goto(base + "/accounts/login/")
    choose(stranger, "de")
    for path in ("/accounts/login/", "/accounts/signup/"):
        stranger.goto(base + path)
        found[path] = violations(stranger)
    assert {where: seen for where, seen in found.items() if seen} == {}
