"""On a phone, a person plays two turn-based games in a row from "Your games": the page's
"Next game waiting on you", a pick, then the table's own "Next game waiting on you"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.pages import lock_first_pastry, open_table, take_a_seat, two_at_a_table
from tests.e2e.test_phone_pages import too_wide, widest

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def table_id(url: str) -> str:
    found = re.search(r"/games/(\d+)/", url)
    assert found, url
    return found.group(1)


def test_two_turn_based_games_in_a_row_from_your_games_on_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    me, rival = two_at_a_table(
        browser, base, ("tess", "ulla"), "midnight-bakery", viewport=PHONE, pace="day1"
    )
    first = table_id(me.url)
    second_url = open_table(me, base, "midnight-bakery", 2, pace="day1")
    second = table_id(second_url)
    take_a_seat(rival, second_url)
    me.goto(second_url)
    me.get_by_role("button", name="Start the night").click()
    me.locator("#batch-form button.card").first.wait_for()  # the night is dealt

    me.goto(base + "/games/mine/")
    assert me.locator(".your-table.your-move").count() == 2
    # A day a move plus two days bank (the browser tests' PACE_SCALE makes it 0.4 times as long).
    assert me.locator(".your-table .time-left").first.inner_text() == "1 d 4 h left"
    assert too_wide(me) == 0, widest(me)
    me.screenshot(path=str(artifacts / "turn-based-your-games-390.png"), full_page=True)

    me.get_by_role("link", name=re.compile("Next game waiting on you")).click()
    me.wait_for_function("() => window.bakehouseLive === true")
    played = table_id(me.url)
    assert played in (first, second)
    mine = me.locator(".table-seat.mine .clock", has_text="left")
    mine.wait_for()  # the clock script has ticked
    clock = mine.inner_text()
    assert re.fullmatch(r"9 h 3\d min left \+ bank 19 h 12 min", clock), clock
    lock_first_pastry(me)
    upcoming = me.locator("#next-game a", has_text="Next game waiting on you")
    upcoming.wait_for()
    # Its time left is the banner's own second line, inside it.
    time_left = upcoming.locator(".next-game-time")
    words = time_left.inner_text()
    assert re.search(r"^\d+ (d|h|min)\b.* left$", words, re.M), words
    banner, under = upcoming.bounding_box(), time_left.bounding_box()
    assert banner is not None and under is not None
    assert banner["y"] <= under["y"]
    assert under["y"] + under["height"] <= banner["y"] + banner["height"]
    assert too_wide(me) == 0, widest(me)
    me.screenshot(path=str(artifacts / "turn-based-next-game-390.png"), full_page=True)

    upcoming.click()
    me.wait_for_function("() => window.bakehouseLive === true")
    other = table_id(me.url)
    assert {played, other} == {first, second}
    lock_first_pastry(me)
    me.locator("#next-game", has_text="none other waits on your move").wait_for()
    me.screenshot(path=str(artifacts / "turn-based-none-waiting-390.png"), full_page=True)

    me.goto(base + "/games/mine/")
    assert me.locator(".your-table.your-move").count() == 0
    assert me.locator(".your-table .to-move", has_text="ulla to move").count() == 2

    # The rival goes away for three days: her clocks stand still and her rival sees it.
    rival.goto(base + "/games/vacation/")
    rival.fill("#id_days", "3")
    rival.get_by_role("button", name="Take these days away").click()
    rival.get_by_text("You are on vacation until").wait_for()
    assert too_wide(rival) == 0, widest(rival)
    rival.screenshot(path=str(artifacts / "turn-based-vacation-390.png"), full_page=True)
    me.goto(base + "/games/mine/")
    assert me.locator(".your-table .tag.vacation", has_text="ulla: on vacation until").count() == 2
    assert too_wide(me) == 0, widest(me)
    me.screenshot(path=str(artifacts / "turn-based-rival-away-390.png"), full_page=True)
    # At the table her clock reads in days, stopped till she is back; she is offline, not
    # "reconnecting".
    me.goto(base + f"/games/{first}/")
    me.wait_for_function("() => window.bakehouseLive === true")
    hers = me.locator(".table-seat", has_text="ulla")
    held = hers.locator(".clock", has_text="resumes in")
    held.wait_for()  # the clock script has ticked
    assert re.fullmatch(r"stopped, resumes in [23] d( \d+ h)?", held.inner_text()), (
        held.inner_text()
    )
    assert hers.locator(".presence").inner_text() == "offline"
    assert too_wide(me) == 0, widest(me)
    me.screenshot(path="/tmp/turn-based-rival-vacation-table-390.png", full_page=True)
    for page in (me, rival):
        page.context.close()
