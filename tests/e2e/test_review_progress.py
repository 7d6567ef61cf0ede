"""In the browser: a person asks for a review of a finished game's seat, and the page shows the
master weighing its decisions one after another, then the whole review, without a reload: the
review's socket draws each step (the site's own runner works it on its review lane, the weighing
in its thinking processes)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import person
from tests.e2e.test_phone_pages import demo_games

pytestmark = pytest.mark.e2e

PROGRESS = re.compile(r"Weighing decision (\d+) of (\d+)\.")
# Seconds the whole review may take: it is weighed in the site's thinking processes, niced below
# the site; on a loaded machine 14 of 24 decisions were weighed after the 60 s this test gave it.
REVIEW_PATIENCE = 200.0  # under the 300 s every test has (pyproject: timeout)


def test_a_reviews_progress_moves_live_until_it_is_whole(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base = daphne_site["url"]
    demo_games(daphne_site["db"])
    page = person(browser, base, "reviewer")
    page.goto(base + "/games/history/?game=midnight-bakery")
    found = re.search(r'href="/games/(\d+)/replay/"', page.content())
    assert found, "the demo's nights are in history"
    page.goto(f"{base}/games/{found.group(1)}/review/0/")
    page.evaluate("() => { window.sameDocument = true; }")
    page.get_by_role("button", name="Review this seat").click()
    seen: set[int] = set()
    states: set[str] = set()
    deadline = time.monotonic() + REVIEW_PATIENCE
    while True:
        states.add(str(page.evaluate("() => document.body.dataset.socket || ''")))
        if page.locator("#review h2", has_text="Every decision").count():
            break
        # Read in one go: the words may go between a count and a read (the review came whole).
        shown = page.evaluate(
            "() => document.querySelector('#review .progress-words')?.textContent || ''"
        )
        words = PROGRESS.search(str(shown))
        if words:
            seen.add(int(words.group(1)))
        assert time.monotonic() < deadline, f"the review never came whole (saw {sorted(seen)})"
        page.wait_for_timeout(100)
    assert len(seen) >= 2, f"the progress did not move: {sorted(seen)}"
    assert page.evaluate("() => window.sameDocument === true")  # no reload
    assert "live" in states  # drawn by the review's socket (static/js/review.js)
    assert page.locator("#review[hx-trigger]").count() == 0  # the poll was let go
    summary = page.locator(".review-summary").inner_text()
    assert summary.endswith(".")
    assert page.locator(".review-decisions tbody tr").count() > 5
    page.screenshot(path=str(artifacts / "review-whole.png"), full_page=True)
    page.context.close()
