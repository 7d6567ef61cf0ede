"""Two people on phones press "Find a game" and land at the same running table, touching nothing
else: the second one's press pairs nothing at once (both accept up to four bakers), so the
table comes from the runner's sweep once the first has waited, and their pages follow it; the
first one's other tab, at a game against bots, goes to the new table too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, person
from tests.e2e.test_phone_pages import too_wide, widest

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
TABLE = re.compile(r".*/games/(\d+)/$")


def shot(page: Any, artifacts: Any, name: str) -> None:
    """A screenshot of the page kept; it fits the phone."""
    page.screenshot(path=str(artifacts / f"pairing-{name}-390.png"), full_page=True)
    assert too_wide(page) == 0, f"{name} is wider than the phone: {widest(page)}"


def test_two_people_press_find_a_game_and_land_at_one_running_table(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    pages = [
        person(browser, base, name, viewport=PHONE, is_mobile=True, has_touch=True)
        for name in ("pair_rye", "pair_spelt")
    ]
    first, second = pages
    shot(first, artifacts, "lobby")
    elsewhere = first.context.new_page()  # the same person's other tab, at a table
    elsewhere.set_default_timeout(PATIENCE)
    elsewhere.goto(base + "/")
    elsewhere.locator("form[action='/games/quick/'] button").first.click()
    elsewhere.wait_for_url(TABLE)
    elsewhere.wait_for_function("() => window.bakehouseLive === true")
    bots_table = elsewhere.url
    for page in pages:
        form = page.locator("form.find-form", has_text="Cakehalla")
        form.get_by_role("button", name="Find a game").click()
        page.locator("#pairing-waiting").wait_for()
    second.get_by_text("1 other looking").wait_for()
    shot(second, artifacts, "waiting")
    for page in pages:
        page.wait_for_url(TABLE)
        page.wait_for_function("() => window.bakehouseLive === true")
    assert first.url == second.url
    elsewhere.wait_for_url(lambda url: url not in {bots_table} and TABLE.match(url) is not None)
    assert elsewhere.url == first.url
    first.locator("#board-live").wait_for(state="attached")
    first.get_by_text("pair_spelt").first.wait_for()
    shot(first, artifacts, "table")
    for page in pages:
        page.context.close()
