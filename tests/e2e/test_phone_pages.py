"""On a phone (360 and 390 px wide) every page of the site fits: nothing scrolls sideways, and a
wide table scrolls inside its own box with the hint the results use."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, open_table, open_tournament, sign_up, two_at_a_table

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PHONES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]
PAGES = [
    "/",
    "/games/new/",
    "/games/history/",
    "/leaderboards/",
    "/leaderboards/midnight-bakery/",
    "/leaderboards/cakehalla/",
    "/stats/",
    "/stats/midnight-bakery/",
    "/stats/cakehalla/",
    "/games/rules/midnight-bakery/",
    "/games/rules/cakehalla/",
    "/u/demo_brioche/",
    "/accounts/settings/",
    "/games/friends/",
    "/games/live/",
    "/games/mine/",
    "/games/vacation/",
    "/games/inbox/",
    "/tournaments/",
    "/games/987654/",  # the site's own not-found page
]
SIGNED_OUT = ["/accounts/login/", "/accounts/signup/", "/", "/games/history/", "/tournaments/"]


_DEMOED: set[str] = set()
"""The sites' databases this test process has put the demo data in."""


def demo_games(db: str) -> None:
    """make run's demo data on the browser tests' site: bakers with finished games of each kind,
    enough to rank them on the leaderboards. Made once a site (8-9 s of CPU a time): the tests
    that read it only read it."""
    if db in _DEMOED:
        return
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, "manage.py", "demo", "--games", "5", "--seed", "7"]
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    _DEMOED.add(db)


def too_wide(page: Any) -> int:
    """How many pixels the page is wider than the screen (0 when it fits)."""
    return int(
        page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    )


def widest(page: Any) -> str:
    """How much too wide the page is, and the element that sticks out furthest (to mend it)."""
    return str(
        page.evaluate(
            """() => {
              const out = [...document.querySelectorAll("body *")].filter(
                (e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1);
              const last = out.sort((a, b) => b.getBoundingClientRect().right
                - a.getBoundingClientRect().right)[0];
              return (document.documentElement.scrollWidth - document.documentElement.clientWidth)
                + " px: " + (last ? last.tagName + "." + last.className : "?");
            }"""
        )
    )


def too_wide_on_phones(page: Any) -> dict[int, str]:
    """The page shown at each phone's width in turn (resized, not loaded again): at each width
    it is too wide for, how much and what sticks out. Left at the first phone's size."""
    wide = {}
    for phone in [*PHONES[1:], PHONES[0]]:
        page.set_viewport_size(phone)
        if too_wide(page):
            wide[phone["width"]] = widest(page)
    return wide


def test_every_page_fits_a_phone_without_sideways_scrolling(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    """Each page looked at at both phones' widths, one load each."""
    base = daphne_site["url"]
    demo_games(daphne_site["db"])
    context = browser.new_context(viewport=PHONES[0], is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    wide = {}
    for path in SIGNED_OUT:
        page.goto(base + path)
        if found := too_wide_on_phones(page):
            wide[f"{path} (signed out)"] = found
    sign_up(page, base, "phone")
    page.goto(base + "/games/history/")
    finished = re.search(r'href="(/games/\d+/)replay/"', page.content())
    assert finished, "the demo games are in history"
    table = open_table(page, base, "midnight-bakery", 4).removeprefix(base)
    tournament = open_tournament(page, base).removeprefix(base)
    paths = [*PAGES, finished.group(1), finished.group(1) + "replay/", table, tournament]
    for path in paths:
        page.goto(base + path)
        page.wait_for_load_state("load")
        if found := too_wide_on_phones(page):
            wide[path] = found
    page.goto(base + "/games/history/")
    for phone in PHONES:
        page.set_viewport_size(phone)
        page.screenshot(path=str(artifacts / f"history-{phone['width']}.png"), full_page=True)
    assert wide == {}, f"pages wider than a phone (by width): {wide}"
    context.close()


def test_on_a_phone_your_running_clock_stays_in_sight_beside_your_cards(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    phone = PHONES[1]
    me, rival = two_at_a_table(
        browser, daphne_site["url"], ("pam", "quin"), "midnight-bakery", viewport=phone, pace="fast"
    )
    clock = me.locator(".table-seat.mine .clock")
    clock.wait_for()  # a night starts with everyone choosing: my clock runs
    last_card = me.locator("#batch-form button.card").last

    def in_sight(element: Any) -> bool:
        box = element.bounding_box()
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= phone["height"]

    assert me.evaluate("() => document.documentElement.scrollHeight") > phone["height"]
    me.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")  # the chat
    assert in_sight(clock)
    last_card.scroll_into_view_if_needed()
    assert in_sight(clock) and in_sight(last_card)
    me.screenshot(path=str(artifacts / "phone-clock-in-sight.png"))
    for page in (me, rival):
        page.context.close()


def test_a_newcomers_lobby_on_a_phone_counts_down_to_the_next_event_and_offers_a_game_to_watch(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    phone = PHONES[0]
    context = browser.new_context(viewport=phone, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    page.goto(daphne_site["url"] + "/")
    # The site's schedule keeps an hourly arena ahead: its countdown ticks in the page's script
    # ("4 min 59 s" under an hour, never a clock's "4:59"; the server's own words say "5 min").
    page.wait_for_function(
        "() => /^(starts in (\\d+ min( \\d+ s)?|\\d+ s)|starting now)$/.test("
        "document.querySelector('#next-event .countdown[data-at]')?.textContent || '')"
    )
    # A game to watch: people's, or else the house table, which the site starts within a sweep.
    for _ in range(PATIENCE // 1000):
        if page.locator("#watch-live a.watch").count():
            break
        page.wait_for_timeout(1000)
        page.reload()
    watch = page.locator("#watch-live a.watch").first
    assert watch.count(), "the lobby offers a game to watch"
    assert too_wide(page) == 0, widest(page)
    page.screenshot(path=str(artifacts / "lobby-newcomer-360.png"), full_page=True)
    watch.click()
    page.wait_for_selector("#board-live", state="attached")
    assert too_wide(page) == 0, widest(page)
    page.screenshot(path=str(artifacts / "watching-360.png"), full_page=True)
    context.close()
