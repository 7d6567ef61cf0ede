"""On a phone, what a thumb taps is big enough and nothing moves under it: the menu's links and
the settings' checkboxes are 44 px targets, and a live table's board does not jump about while
it arrives (Lighthouse's mobile audits: target size, cumulative layout shift)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, sign_up

pytestmark = pytest.mark.e2e

PHONES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]
TARGET = 44  # px each way: WCAG 2.5.5's target size, which Apple and Android ask for too
BOX = 24  # px each way: a checkbox drawn at least as big as WCAG 2.5.8's smallest target
# A phone on a slow line reads a page in pieces; every piece painted must stay where it lands.
SLOW_LINE = {
    "offline": False,
    "latency": 40,
    "downloadThroughput": 16 * 1024,
    "uploadThroughput": -1,
}
FAST_LINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
# Each layout shift of the page from its start, with what moved (a PerformanceObserver, buffered).
WATCH_SHIFTS = """
window.bakehouseShifts = [];
new PerformanceObserver((list) => {
  for (const shift of list.getEntries()) {
    window.bakehouseShifts.push({
      value: shift.value,
      moved: (shift.sources || []).map((s) => s.node ? (s.node.id || s.node.className) : "?"),
    });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


def phone_page(browser: Any, phone: dict[str, int], init_script: str = "") -> Any:
    """A page in a phone's browser of its own (touch, mobile viewport)."""
    context = browser.new_context(viewport=phone, is_mobile=True, has_touch=True)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    return page


def too_small(page: Any, selector: str, least: int) -> dict[str, str]:
    """The visible elements matching the selector smaller than `least` px either way."""
    small = {}
    for element in page.locator(selector).all():
        box = element.bounding_box()
        if box is None or not element.is_visible():
            continue
        if box["width"] < least or box["height"] < least:
            name = " ".join(element.inner_text().split()) or element.get_attribute("href")
            small[name] = f"{box['width']:.0f}x{box['height']:.0f}"
    return small


@pytest.mark.parametrize("phone", PHONES, ids=["360", "390"])
def test_every_link_of_the_menu_is_a_44_px_target_on_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Path, phone: dict[str, int]
) -> None:
    base = daphne_site["url"]
    page = phone_page(browser, phone)
    header = "header.site a, header.site summary"
    page.goto(base + "/games/history/")
    page.locator("header.site").get_by_role("link", name="Sign up").wait_for()
    assert page.locator(header).count() >= 7  # the brand, four links, Log in, Sign up
    assert too_small(page, header, TARGET) == {}
    sign_up(page, base, f"thumb{phone['width']}")
    assert too_small(page, header, TARGET) == {}
    page.click("header.site .account-menu summary")
    menu = ".account-menu li a, .account-menu li button"
    page.locator(menu).last.wait_for()
    assert page.locator(menu).count() == 5  # your page, friends, settings, password, log out
    assert too_small(page, menu, TARGET) == {}
    page.screenshot(path=str(artifacts / f"phone-menu-open-{phone['width']}.png"))
    page.context.close()


@pytest.mark.parametrize("phone", PHONES, ids=["360", "390"])
def test_a_tap_anywhere_on_a_settings_checkbox_row_ticks_it(
    browser: Any, daphne_site: dict[str, str], artifacts: Path, phone: dict[str, int]
) -> None:
    base = daphne_site["url"]
    page = phone_page(browser, phone)
    sign_up(page, base, f"ticker{phone['width']}")
    page.goto(base + "/accounts/settings/")
    boxes = page.locator("main form input[type=checkbox]")
    assert boxes.count() >= 6  # the move sound and the mails
    page.screenshot(path=str(artifacts / f"phone-settings-{phone['width']}.png"), full_page=True)
    for box in boxes.all():
        label = page.locator(f"label[for='{box.get_attribute('id')}']")
        row, tick = label.bounding_box(), box.bounding_box()
        assert row is not None and tick is not None
        assert row["height"] >= TARGET, label.inner_text()
        assert tick["width"] >= BOX and tick["height"] >= BOX, label.inner_text()
        # The box lies inside its row: a tap beside it, above it or on the words ticks it too.
        assert row["x"] <= tick["x"] and tick["x"] + tick["width"] <= row["x"] + row["width"]
        assert row["y"] <= tick["y"] and tick["y"] + tick["height"] <= row["y"] + row["height"]
        for x, y in (
            (tick["x"] + tick["width"] / 2, row["y"] + 2),  # just above the box
            (row["x"] + row["width"] - 4, row["y"] + row["height"] / 2),  # the row's far end
        ):
            was = box.is_checked()
            page.touchscreen.tap(x, y)
            assert box.is_checked() != was, label.inner_text()
    page.context.close()


def csrf_token(page: Any) -> str:
    """The page's CSRF cookie, which a posted form sends back."""
    return next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")


def quick_table(page: Any, base: str, kind: str) -> str:
    """A game of that kind against bots, started at once (the lobby's quick game), once it
    waits on this person's move; its URL."""
    answer = page.request.post(
        base + "/games/quick/",
        form={"kind": kind, "csrfmiddlewaretoken": csrf_token(page)},
        headers={"Referer": base + "/"},
    )
    assert answer.ok and "/games/" in answer.url, answer.url
    # Bots who sit before this person move first; the page is measured once they are done.
    page.goto(answer.url)
    page.locator("#board[data-your-move=yes]").wait_for(state="attached")
    return str(answer.url)


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_a_live_tables_board_stays_put_while_it_arrives_on_a_slow_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Path, kind: str
) -> None:
    base = daphne_site["url"]
    phone = PHONES[0]
    page = phone_page(browser, phone, WATCH_SHIFTS)
    sign_up(page, base, f"steady-{kind}")
    table = quick_table(page, base, kind)
    line = page.context.new_cdp_session(page)
    line.send("Network.enable")
    line.send("Network.setCacheDisabled", {"cacheDisabled": True})
    line.send("Network.emulateNetworkConditions", SLOW_LINE)
    page.goto(table, wait_until="load")
    page.wait_for_function("() => window.bakehouseLive === true")
    page.locator("#board[data-your-move=yes]").wait_for(state="attached")
    line.send("Network.emulateNetworkConditions", FAST_LINE)
    shifts = page.evaluate("window.bakehouseShifts")
    # Every shift counts: nobody touched the page (Chromium marks the first ones after a
    # navigation made over DevTools as if input came before them).
    moved = sum(shift["value"] for shift in shifts)
    page.screenshot(path=str(artifacts / f"phone-live-table-{kind}-{phone['width']}.png"))
    assert moved < 0.1, shifts
    page.context.close()
