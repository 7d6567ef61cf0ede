"""A German person on a phone (the longest words): every page axe reads (test_axe.py) and the pages
of play (a new table, a waiting table, your games, the vacation page, watch live, a game's stats,
its replay and review, a tournament's list and page), each loaded once at 360 px, where axe-core
finds no violation, and looked at at 360 and 390 px, where nothing scrolls sideways; logging in
and signing up likewise for a stranger (issue 50, item 6)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, open_table, open_tournament, person
from tests.e2e.test_axe import choose, pages_of, violations
from tests.e2e.test_phone_pages import PHONES, too_wide_on_phones

pytestmark = pytest.mark.e2e

PHONE: dict[str, Any] = {"is_mobile": True, "has_touch": True, "viewport": PHONES[0]}
PLAY = [
    "/games/new/",
    "/games/mine/",
    "/games/vacation/",
    "/games/live/",
    "/stats/midnight-bakery/",
    "/stats/cakehalla/",
]


def looked_at(page: Any, base: str, path: str, found: dict[str, list[str]]) -> None:
    """Load the path in German; what axe finds at 360 px and each phone width it is too wide for."""
    page.goto(base + path)
    page.wait_for_load_state("load")
    assert page.locator("html").get_attribute("lang") == "de", path
    found[path] = violations(page)
    found[path] += [
        f"{width} px too wide: {what}" for width, what in too_wide_on_phones(page).items()
    ]


# About forty loads, each read by axe: longer than the 300 s every test has on a loaded machine.
@pytest.mark.timeout(600)
def test_every_page_in_german_fits_a_phone_and_axe_finds_no_violation(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    # Signed up in English: the helpers press its words.
    page = person(browser, base, "gertrud", **PHONE)
    paths = pages_of(page, daphne_site, "gertrud")
    finished = next(path for path in paths if path.endswith("/replay/"))
    waiting = open_table(page, base, "midnight-bakery", 4).removeprefix(base)
    tournament = open_tournament(page, base).removeprefix(base)
    paths += [*PLAY, finished.removesuffix("replay/") + "review/", waiting, tournament]
    page.goto(base + "/")
    choose(page, "de")  # saved on the account
    found: dict[str, list[str]] = {}
    for path in dict.fromkeys(paths):
        looked_at(page, base, path, found)
    page.goto(base + waiting)
    assert page.locator("#chat h2").inner_text() == "Tisch-Chat"
    page.screenshot(path=str(artifacts / "table-de-360.png"), full_page=True)
    stranger = browser.new_context(**PHONE).new_page()
    stranger.set_default_timeout(PATIENCE)
    stranger.goto(base + "/accounts/login/")
    choose(stranger, "de")  # in a cookie
    for path in ("/accounts/login/", "/accounts/signup/"):
        looked_at(stranger, base, path, found)
    assert {where: seen for where, seen in found.items() if seen} == {}
    for each in (page, stranger):
        each.context.close()
