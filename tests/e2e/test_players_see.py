"""What a new player meets, in a real browser: the invite flow, a phone's Cakehalla turn, a
phone's results table. Screenshots land in artifacts/ (players-*.png) to be looked at."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.pages import PASSWORD, PATIENCE, pick_unless, sign_up

PHONE = {"width": 390, "height": 844}


def test_a_friend_follows_the_invite_signs_up_and_sits(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base = daphne_site["url"]
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    host_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    host = host_ctx.new_page()
    host.set_default_timeout(PATIENCE)
    sign_up(host, base, "hope")
    host.goto(base + "/games/new/")
    host.select_option("#id_kind", "cakehalla")
    host.fill("#id_capacity", "2")
    host.check("#id_private")
    host.click("main button[type=submit]")
    host.wait_for_url(re.compile(r".*/games/\d+/$"))
    link = host.locator("#invite-link")
    invite = str(link.get_attribute("href"))
    assert "?invite=" in invite
    # The link is shown whole, with the site's address, and the button copies exactly that.
    host.wait_for_function(
        "() => document.getElementById('invite-link').textContent.startsWith('http')"
    )
    absolute = link.inner_text()
    assert absolute == base + invite
    host.get_by_role("button", name="Copy link").click()
    host.get_by_text("Copied.").wait_for()
    assert host.evaluate("() => navigator.clipboard.readText()") == absolute

    friend_ctx = browser.new_context(viewport=PHONE)
    friend = friend_ctx.new_page()
    friend.set_default_timeout(PATIENCE)
    friend.goto(absolute)
    join = friend.get_by_role("link", name="Sign up to take a seat")
    join.wait_for()
    friend.screenshot(path=str(artifacts / "players-invite-logged-out.png"))
    join.click()
    friend.wait_for_url(re.compile(r".*/accounts/signup/\?next=.*"))
    friend.fill("#id_username", "ines")
    friend.fill("#id_password1", PASSWORD)
    friend.fill("#id_password2", PASSWORD)
    friend.click("main button[type=submit]")
    friend.wait_for_url(absolute)  # back at the table, invite and all
    friend.get_by_role("button", name="Take a seat").click()
    friend.get_by_role("button", name="Leave the table").wait_for()
    host.locator("#region-waiting .seats").get_by_text("ines").wait_for()  # pushed live
    # The waiting room was redrawn by that push; the line the host's tap wrote stays.
    assert host.locator("[data-copied=invite-link]").inner_text().startswith("Copied.")
    friend.screenshot(path=str(artifacts / "players-invite-seated.png"))
    host.screenshot(path=str(artifacts / "players-invite-host.png"))


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found, selector
    return {k: float(v) for k, v in found.items()}


def test_a_cakehalla_turn_fits_a_phone_and_two_taps_take_two(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base = daphne_site["url"]
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, "juno")
    page.get_by_role("button", name="Rated Cakehalla against bots").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.locator("#region-counter").wait_for()
    page.wait_for_function("() => window.bakehouseLive === true")
    page.locator('#board-live[data-your-move="yes"]').wait_for(state="attached")
    page.screenshot(path=str(artifacts / "players-cakehalla-phone.png"))
    page.screenshot(path=str(artifacts / "players-cakehalla-phone-full.png"), full_page=True)
    screen = PHONE["height"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    counter, take, mine = (
        box(page, "#region-counter"),
        box(page, "[data-take]"),
        box(page, "#region-mine"),
    )
    # The counter starts near the top (under the menu's two lines of 44 px targets, and the
    # turn's banner: two lines more when both bots moved before you, as the seats are drawn at
    # random: 285 px then); Take is on the first screen; your bakery starts on it too and ends
    # within a short scroll (it was 600, 1,250 and 1,300 px down).
    assert counter["y"] < screen * 0.36
    assert take["y"] + take["height"] <= screen
    assert mine["y"] < screen
    assert mine["y"] + mine["height"] < screen * 1.25

    # The seed: tap the same one twice to take 2, whatever else was picked first.
    takes = json.loads(str(page.locator("#market-form").get_attribute("data-takes")))
    twos = [t[0] for t in takes if len(t) == 2 and t[0] == t[1]]
    singles = sorted({n for t in takes for n in t} - set(twos[:1]))
    assert twos and singles
    two, other = twos[0], singles[0]
    page.click(f'#market-form [data-ing="{other}"]')
    page.click(f'#market-form [data-ing="{two}"]')
    page.click(f'#market-form [data-ing="{two}"]')
    action = json.loads(str(page.locator('#market-form input[name="action"]').input_value()))
    assert action == {"type": "take", "ingredients": [two, two]}
    assert page.locator(f'#market-form [data-ing="{two}"] .picked').inner_text() == "\u00d72"
    assert (
        page.locator(f'#market-form [data-ing="{other}"]').get_attribute("aria-pressed") == "false"
    )
    assert page.locator("[data-take]").is_enabled()
    page.screenshot(path=str(artifacts / "players-cakehalla-two-picked.png"))
    # A third tap puts it down.
    page.click(f'#market-form [data-ing="{two}"]')
    assert page.locator("span[data-picks]").inner_text() == "nothing yet"

    # A pile asks before it reserves blind.
    page.click("#pile-1 > summary")
    page.locator("#pile-1").get_by_role("button", name="Reserve face down").wait_for()
    page.screenshot(path=str(artifacts / "players-cakehalla-pile-offer.png"))
    before = page.locator("#board-version").input_value()
    page.locator("#pile-1").get_by_role("button", name="Reserve face down").click()
    page.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)"
        " && document.querySelector('.just-line')",
        arg=before,
    )
    page.screenshot(path=str(artifacts / "players-cakehalla-bot-just-moved.png"))
    assert page.locator("#region-mine .reserve-form details.offer").count() == 1
    assert page.locator("#pile-1").get_attribute("open") is None  # the offer closed with the move


def pick_until(page: Any, shown: str, tries: int = 60) -> None:
    """Keep a pastry at every pick (and close a bake's results) until `shown` is on the page."""
    for _ in range(tries):
        page.wait_for_function(
            "shown => document.querySelector(shown)"
            " || (document.querySelector('#batch-form button.card, #region-results form button')"
            " && !document.querySelector('.htmx-request'))",
            arg=shown,
        )
        if page.locator(shown).count():
            return
        back = page.get_by_role("button", name="Back to the ovens")
        if back.count():
            try:
                back.click(timeout=3000)
                back.wait_for(state="detached")
            except PlaywrightTimeout:
                pass  # the board was redrawn under the tap (a bot's push): look again
            continue
        pick_unless(page, shown)
    raise AssertionError(f"{shown} did not show")


def within(page: Any, selector: str, screen: dict[str, int]) -> None:
    """The element is wholly on the screen the page shows now."""
    found = box(page, selector)
    assert found["x"] >= 0 and found["x"] + found["width"] <= screen["width"], (selector, found)
    assert found["y"] >= 0 and found["y"] + found["height"] <= screen["height"], (selector, found)


def test_a_nights_results_scroll_sideways_on_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base = daphne_site["url"]
    # The first bake's table on the narrowest phone in use: at 370 px a bake with short pastry
    # names fitted it exactly (334 px wide in 334), and nothing scrolled.
    screen = {"width": 320, "height": 700}
    page = browser.new_context(viewport=screen).new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, "kai")
    page.get_by_role("button", name="Rated Midnight Bakery against bots").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.wait_for_function("() => window.bakehouseLive === true")
    pick_until(page, "#region-results .results-card")

    # The first bake's results: wider than the phone, they scroll on their own, with a hint.
    table = "#region-results .table-scroll"
    scroller = page.locator(table).first
    scroller.scroll_into_view_if_needed()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= screen["width"]
    widths = scroller.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] > widths[1]  # wider than the phone: it scrolls on its own
    hint = page.locator("#region-results .scroll-hint").first
    assert hint.inner_text() == "Swipe sideways for every column \u2192" and hint.is_visible()
    within(page, table, screen)
    first = page.screenshot(path=str(artifacts / "players-bake-results-phone.png"))
    scroller.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    within(page, table, screen)
    scrolled = page.screenshot(path=str(artifacts / "players-bake-results-phone-scrolled.png"))
    assert scrolled != first
    last = page.locator("#region-results table.bake thead th").last
    assert last.inner_text() == "Running total" and last.is_visible()

    # The night's final standings, and every bake's table under them, on a common phone.
    screen = {"width": 370, "height": 844}
    page.set_viewport_size(screen)
    pick_until(page, "#region-results .results-card.night", tries=200)
    card = page.locator("#region-results .results-card.night")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= screen["width"]
    tables = card.locator(".table-scroll")
    assert tables.count() == 4  # the night, then bakes 1 to 3
    wide = [i for i in range(4) if tables.nth(i).evaluate("e => e.scrollWidth > e.clientWidth")]
    hints = card.locator(".scroll-hint")
    shown = [i for i in range(4) if hints.nth(i).is_visible()]
    # Said once, under the first table that is wider than the phone (none if all fit).
    assert shown == wide[:1]
    card.locator("h2").scroll_into_view_if_needed()
    within(page, "#region-results .results-card.night .table-scroll", screen)
    page.screenshot(path=str(artifacts / "players-night-results-phone.png"))
    assert wide, "the bake tables are wider than a phone"
    widest = tables.nth(wide[0])
    widest.scroll_into_view_if_needed()
    hints.nth(wide[0]).scroll_into_view_if_needed()
    within(page, f"#region-results .results-card.night .table-scroll >> nth={wide[0]}", screen)
    before = page.screenshot(path=str(artifacts / "players-night-results-phone-bake.png"))
    widest.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    after = page.screenshot(path=str(artifacts / "players-night-results-phone-bake-scrolled.png"))
    assert after != before
    assert widest.locator("thead th").last.is_visible()
    # On a narrower phone the standings themselves no longer fit: the hint moves up under them.
    page.set_viewport_size({"width": 320, "height": 700})
    hints.first.wait_for(state="visible")
    assert [i for i in range(4) if hints.nth(i).is_visible()] == [0]
    card.locator("h2").scroll_into_view_if_needed()
    within(page, "#region-results .results-card.night .table-scroll", {"width": 320, "height": 700})
    page.screenshot(path=str(artifacts / "players-night-results-small-phone.png"))


def in_sight(page: Any, selector: str, width: int) -> list[str]:
    """The visible elements matching the selector that stick out of a screen this wide."""
    return list(
        page.evaluate(
            """([selector, width]) => [...document.querySelectorAll(selector)]
                .filter(e => e.getClientRects().length)
                .filter(e => { const r = e.getBoundingClientRect();
                               return r.left < 0 || r.right > width; })
                .map(e => e.textContent.trim())""",
            [selector, width],
        )
    )


def test_the_whole_menu_fits_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base = daphne_site["url"]
    phone = {"width": 375, "height": 812}
    page = browser.new_context(viewport=phone).new_page()
    page.set_default_timeout(PATIENCE)
    items = "header.site a, header.site summary, header.site button"
    page.goto(base + "/")
    header = page.locator("header.site")
    header.get_by_role("link", name="Sign up").wait_for()
    page.screenshot(path=str(artifacts / "players-menu-phone-logged-out.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= phone["width"]
    assert in_sight(page, items, phone["width"]) == []
    assert box(page, "header.site")["height"] < 100  # two lines of 44 px targets
    sign_up(page, base, "marzipanqueen")
    header.get_by_role("link", name="New table").wait_for()
    page.screenshot(path=str(artifacts / "players-menu-phone.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= phone["width"]
    assert in_sight(page, items, phone["width"]) == []
    assert box(page, "header.site")["height"] < 100
    for name in ("Lobby", "History", "Leaderboards", "Stats", "New table"):
        assert header.get_by_role("link", name=name, exact=True).is_visible(), name
    # The account's links are one tap away, in sight, and the menu closes on a tap elsewhere.
    page.click("header.site .account-menu summary")
    log_out = header.get_by_role("button", name="Log out")
    log_out.wait_for()
    for name in ("Your page", "Settings", "Password"):
        assert header.get_by_role("link", name=name).is_visible(), name
    assert in_sight(page, items, phone["width"]) == []
    page.screenshot(path=str(artifacts / "players-menu-phone-open.png"))
    page.click("main h1")
    assert not log_out.is_visible()
    page.click("header.site .account-menu summary")
    log_out.click()
    header.get_by_role("link", name="Log in").wait_for()
