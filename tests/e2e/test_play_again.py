"""In the browser: two people finish a night, one offers to play again, the other's screen shows
the offer live, and the last yes starts the new table that both open screens go to, where the
first clocks start once both have arrived (not a fixed grace later)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import two_at_a_table
from tests.e2e.test_two_bakers_play_a_night import in_step, take_a_turn

pytestmark = pytest.mark.e2e


# The page's own seat shows a clock counting down its move, not when it starts.
RUNNING_CLOCK = """() => {
  const clock = document.querySelector(".table-seat.mine .clock");
  return !!clock && /^\\d/.test(clock.innerText) && !clock.innerText.startsWith("starts in");
}"""


def night_over(page: Any) -> bool:
    return page.locator("#night-title").count() > 0


def play_the_night(pages: dict[str, Any]) -> None:
    """Each baker does what their screen asks until both show the night's results."""
    peeled = dict.fromkeys(pages, True)  # keep one pastry a pick; the Peel is another test's
    for _ in range(400):
        if all(night_over(page) for page in pages.values()):
            return
        moved = [take_a_turn(page, peeled, name) for name, page in pages.items()]
        if not any(moved):
            in_step(*pages.values())
            next(iter(pages.values())).wait_for_timeout(100)
    raise AssertionError("the night did not end")


def test_play_again_starts_a_new_table_for_the_same_bakers(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    # A fast table (8 s a move here): the rematch's clocks wait for its people to arrive.
    rita, sam = two_at_a_table(
        browser, daphne_site["url"], ("rita", "sam"), "midnight-bakery", pace="fast"
    )
    play_the_night({"rita": rita, "sam": sam})
    old = rita.url

    rita.get_by_role("button", name="Play again").click()
    rita.get_by_text("Waiting for sam").wait_for()
    sam.get_by_role("button", name="Yes, play again").click()  # arrived by push: no reload

    # Both said yes: each open page goes to the new table by itself.
    def new_table(url: str) -> bool:
        return re.fullmatch(r".*/games/\d+/", url) is not None and url != old

    for page in (rita, sam):
        page.wait_for_url(new_table)
        page.locator("#batch-form button.card").first.wait_for()  # dealt: each picks at once
    # Both are here: the clocks run now, not once the arrival grace is over.
    for page in (rita, sam):
        page.wait_for_function(RUNNING_CLOCK)
    assert rita.url == sam.url
    assert "stand-in" not in rita.locator("#board").inner_text()
    rita.screenshot(path=str(artifacts / "mb-rematch-clocks-run.png"))
    for page in (rita, sam):
        page.context.close()
