"""A German person on a phone at the pages of play (the longest words): a new table, a table, your
games, the vacation page, watch live, a game's stats and its replay, a tournament's list and page,
at 360 and 390 px with nothing scrolling sideways."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.pages import open_table, open_tournament, person
from tests.e2e.test_phone_pages import PHONES, demo_games, too_wide, widest

pytestmark = pytest.mark.e2e

PAGES = [
    "/games/new/",
    "/games/mine/",
    "/games/vacation/",
    "/games/live/",
    "/stats/midnight-bakery/",
    "/stats/cakehalla/",
    "/tournaments/",
]


@pytest.mark.parametrize("phone", PHONES, ids=["360", "390"])
def test_a_german_persons_pages_of_play_fit_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Any, phone: dict[str, int]
) -> None:
    base = daphne_site["url"]
    demo_games(daphne_site["db"])
    # Signed up in English: the helpers press its words.
    page = person(
        browser, base, f"gertrud{phone['width']}", viewport=phone, is_mobile=True, has_touch=True
    )
    page.goto(base + "/games/history/")
    finished = re.search(r'href="(/games/\d+/)replay/"', page.content())
    assert finished, "the demo games are in history"
    table = open_table(page, base, "midnight-bakery", 4).removeprefix(base)
    tournament = open_tournament(page, base).removeprefix(base)
    page.locator("details.language-menu > summary").click()  # then German, saved on the account
    page.locator("details.language-menu button[value=de]").click()
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    wide = {}
    replay = finished.group(1) + "replay/"
    for path in [*PAGES, replay, finished.group(1) + "review/", table, tournament]:
        page.goto(base + path)
        page.wait_for_load_state("load")
        assert page.locator("html").get_attribute("lang") == "de", path
        if too_wide(page):
            wide[path] = widest(page)
    page.goto(base + table)
    assert page.locator("#chat h2").inner_text() == "Tisch-Chat"
    page.screenshot(path=str(artifacts / f"table-de-{phone['width']}.png"), full_page=True)
    assert wide == {}, f"German pages of play wider than a {phone['width']} px phone: {wide}"
    page.context.close()
