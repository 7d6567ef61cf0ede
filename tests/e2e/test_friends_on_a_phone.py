"""Two bakers on phones become friends from a profile, one invites the other from a waiting room,
the friends page shows where the host is, and the lobby and the page of every live table list a live
game to watch: every page
fits 390 px."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.pages import open_table, person
from tests.e2e.test_phone_pages import too_wide, widest

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def fits(page: Any, shots: Any, name: str) -> None:
    """The page fits the phone; a screenshot of it is kept."""
    page.screenshot(path=str(shots / f"friends-{name}-390.png"), full_page=True)
    assert too_wide(page) == 0, f"{name} is wider than the phone: {widest(page)}"


def test_friends_invite_and_watch_live_on_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    pages = [
        person(browser, base, name, viewport=PHONE, is_mobile=True, has_touch=True)
        for name in ("rye_host", "rye_guest")
    ]
    host, guest = pages
    host.goto(base + "/u/rye_guest/")
    host.get_by_role("button", name="Add friend").click()
    host.get_by_text("You asked rye_guest to be your friend.").wait_for()
    fits(host, artifacts, "profile")
    guest.goto(base + "/games/friends/")
    guest.get_by_role("button", name="Accept").click()
    guest.get_by_text("You and rye_host are friends now.").wait_for()

    table = open_table(host, base, "midnight-bakery", 3)
    host.get_by_role("button", name="Invite").click()
    host.get_by_text("rye_guest is invited").wait_for()
    fits(host, artifacts, "waiting-room")

    guest.goto(base + "/games/friends/")
    line = guest.locator(".friend", has_text="rye_host")
    line.get_by_text("online now").wait_for()
    assert line.locator("a.friend-table").get_attribute("href") == table.removeprefix(base)
    fits(guest, artifacts, "page")

    guest.goto(base + "/")
    guest.locator("form[action='/games/quick/'] button").first.click()
    guest.wait_for_url(re.compile(r".*/games/\d+/$"))
    played = guest.url.removeprefix(base)
    host.goto(base + "/")
    # The lobby's box shows the five best running tables: on this site, shared with the other
    # browser tests, rated games left running by them may rank above this practice table; the
    # page of every live table lists it whatever else runs.
    assert host.locator("#watch-live a.watch").count() >= 1
    fits(host, artifacts, "lobby")
    host.locator("#watch-live a", has_text="Every live table").click()
    watch = host.locator(f"#watch-live a.watch[href='{played}']")
    assert watch.count() == 1
    fits(host, artifacts, "live")
    watch.click()
    host.wait_for_url(base + played)
    host.locator("#live").wait_for()
    for page in pages:
        page.context.close()
