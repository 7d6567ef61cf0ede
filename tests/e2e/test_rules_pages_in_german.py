"""The How to play pages in German (the longest words) on a phone: both games' rules, the card
reference and the customers' list at 360 and 390 px, with nothing scrolling sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import PATIENCE
from tests.e2e.test_phone_pages import PHONES, too_wide, widest

pytestmark = pytest.mark.e2e

RULES = {"midnight-bakery": "So spielt man Midnight Bakery", "cakehalla": "So spielt man Cakehalla"}


@pytest.mark.parametrize("phone", PHONES, ids=["360", "390"])
def test_the_german_rules_pages_fit_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Any, phone: dict[str, int]
) -> None:
    base = daphne_site["url"]
    context = browser.new_context(viewport=phone, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": "de", "url": base}])
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    wide = {}
    for slug, title in RULES.items():
        page.goto(f"{base}/games/rules/{slug}/")
        page.wait_for_load_state("load")
        assert page.locator("html").get_attribute("lang") == "de", slug
        assert page.locator("h1").inner_text() == title
        shot = artifacts / f"rules-{slug}-de-{phone['width']}.png"
        page.screenshot(path=str(shot), full_page=True)
        if too_wide(page):
            wide[slug] = widest(page)
    assert wide == {}, f"German rules pages wider than a {phone['width']} px phone: {wide}"
    context.close()
