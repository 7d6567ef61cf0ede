"""Times in the browser's own zone (a person in New York): the create form reads the exact start
in their zone and the site stores it in UTC; the tournament page writes its start in their zone
and language, not in UTC; a countdown says "in 29 min 54 s", never "29:54", which reads as a
time of day."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.e2e.pages import PATIENCE, person

pytestmark = pytest.mark.e2e

NEW_YORK = ZoneInfo("America/New_York")
TOURNAMENT = re.compile(r".*/tournaments/(\d+)/$")


def new_yorker(browser: Any, base: str, name: str) -> Any:
    """A person whose browser is in New York, in American English, signed up."""
    return person(browser, base, name, timezone_id="America/New_York", locale="en-US")


def make(page: Any, base: str, name: str, **when: str) -> int:
    """Make a relaxed Swiss from the form, starting in `starts_in` minutes or at `starts_at`
    (as typed in the browser); its id."""
    page.goto(base + "/tournaments/")
    form = page.locator("form.tournament-form")
    form.locator("#id_name").fill(name)
    form.locator("#id_format").select_option("swiss")
    form.locator("#id_pace").select_option("relaxed")
    form.locator("#id_seats").fill("2")
    form.locator("#id_rounds").fill("1")
    if "starts_in" in when:
        form.locator("#id_starts_in").select_option(when["starts_in"])
    if "starts_at" in when:
        form.locator("#id_starts_at").fill(when["starts_at"])
    form.get_by_role("button", name="Make the tournament").click()
    page.wait_for_url(TOURNAMENT)
    found = TOURNAMENT.match(page.url)
    assert found is not None
    return int(found.group(1))


def stored_start(db: str, pk: int) -> datetime:
    """The start the site stored, read from its database."""
    with sqlite3.connect(db) as connection:
        (raw,) = connection.execute(
            "SELECT starts_at FROM tournaments_tournament WHERE id = ?", (pk,)
        ).fetchone()
    return datetime.fromisoformat(raw).replace(tzinfo=UTC)


def test_a_new_yorker_writes_and_reads_times_in_new_york(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    page = new_yorker(browser, base, "ny_baker")
    page.goto(base + "/tournaments/")
    assert page.locator("label[for=id_starts_at]").inner_text() == (
        "Or starts at (your time, America/New York)"
    )
    nine = (datetime.now(NEW_YORK) + timedelta(days=2)).replace(
        hour=9, minute=0, second=0, microsecond=0
    )
    pk = make(page, base, "Morning Swiss", starts_at=nine.strftime("%Y-%m-%dT%H:%M"))
    assert stored_start(daphne_site["db"], pk) == nine.astimezone(UTC)

    when = page.locator("#tournament-live .tournament-when time[data-local]")
    page.wait_for_function(
        "() => !/UTC/.test(document.querySelector('#tournament-live time[data-local]').textContent)"
    )
    shown = when.inner_text()
    assert "9:00 AM" in shown and re.search(r"\b(EST|EDT)\b", shown), shown
    assert when.get_attribute("title", timeout=PATIENCE).endswith("UTC")  # the server's words
    page.screenshot(path=str(artifacts / "tournament-times-new-york.png"), full_page=True)
    page.context.close()


def test_a_countdown_under_an_hour_says_minutes_and_seconds_in_words(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    page = new_yorker(browser, base, "ny_soon")
    make(page, base, "Soon Swiss", starts_in="30")
    countdown = page.locator("#tournament-live .countdown[data-at]")
    page.wait_for_function(
        "() => /^in \\d+ min \\d+ s$/.test("
        "document.querySelector('#tournament-live .countdown[data-at]').textContent)"
    )
    assert not re.search(r"\d:\d\d", countdown.inner_text())
    page.screenshot(path=str(artifacts / "tournament-countdown.png"), full_page=True)
    page.context.close()
