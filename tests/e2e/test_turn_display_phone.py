"""On a phone, at a Cakehalla turn-based table, your clock (hours and days) stays on your seat
line: no floating bubble covers "Your bakery"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import two_at_a_table
from tests.e2e.test_phone_pages import too_wide, widest

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def overlap(one: dict[str, float] | None, other: dict[str, float] | None) -> bool:
    """Whether two boxes on the screen cover each other."""
    assert one is not None and other is not None
    return not (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


def test_the_clock_bubble_leaves_your_bakery_in_sight_on_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    host, guest = two_at_a_table(
        browser, base, ("vera", "wim"), "cakehalla", viewport=PHONE, pace="day1"
    )
    host.locator(".table-seat.waited-on").first.wait_for()
    mover = host if host.locator(".table-seat.mine.waited-on").count() else guest
    bubble = mover.locator(".table-seat.mine .clock", has_text="left")
    bubble.wait_for()
    title = mover.locator("#mine-title")
    title.scroll_into_view_if_needed()
    assert not overlap(bubble.bounding_box(), title.bounding_box())
    mover.evaluate("() => window.scrollTo(0, 0)")
    assert not overlap(bubble.bounding_box(), title.bounding_box())  # the first screen
    assert too_wide(mover) == 0, widest(mover)
    mover.screenshot(path=str(artifacts / "cakehalla-turn-based-390.png"))
    for page in (host, guest):
        page.context.close()
