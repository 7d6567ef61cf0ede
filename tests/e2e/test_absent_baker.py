"""A baker closes their tab mid-night at a fast table: their seat is shown away, a stand-in plays
each pick their time runs out on (the table is told), after three a bot takes the seat, and the
others finish the night. Its own site runs with PACE_SCALE=0.2 (a fast pick is 4 s plus a 12 s
bank: the three stand-ins come after 24 s, where the other browser tests' 0.4 took 48 s); the
test waits on what the pages and the database show, never a fixed time.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import running_site
from tests.e2e.pages import PATIENCE, sign_up
from tests.e2e.test_two_bakers_play_a_night import take_a_turn

pytestmark = pytest.mark.e2e

NAMES = ("gwen", "hugo", "ivo")  # ivo closes his tab


@pytest.fixture(scope="module")
def daphne_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """This module's site, with clocks half as long as the other browser tests' site."""
    with running_site(tmp_path_factory, PACE_SCALE="0.2") as site:
        yield site


def seat_line(page: Any, name: str) -> Any:
    """The table region's line of this person's seat."""
    return page.locator("#region-table li.table-seat", has_text=name)


def night_over(page: Any) -> bool:
    return bool(page.get_by_text("The night's results").count())


def stand_in_rows(db: str, name: str) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return list(
            conn.execute(
                "SELECT a.bot, s.handed_over FROM games_action a"
                " JOIN accounts_user u ON u.id = a.user_id"
                " JOIN games_seat s ON s.user_id = u.id AND s.game_id = a.game_id"
                " WHERE u.username = ? AND a.bot != ''",
                (name,),
            )
        )


def test_a_tab_closed_mid_night_leaves_a_stand_in_and_the_others_finish(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base = daphne_site["url"]
    pages, contexts = {}, []
    for name in NAMES:
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PATIENCE)
        sign_up(page, base, name)
        pages[name] = page
    host = pages["gwen"]
    host.goto(base + "/games/new/")
    host.select_option("#id_kind", "midnight-bakery")
    host.fill("#id_capacity", "3")
    host.select_option("#id_pace", "fast")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r".*/games/\d+/$"))
    for name in NAMES[1:]:
        pages[name].goto(host.url)
        pages[name].get_by_role("button", name="Take a seat").click()
        pages[name].get_by_role("button", name="Leave the table").wait_for()
    host.get_by_role("button", name="Start the night").click()
    for page in pages.values():
        page.wait_for_function("() => window.bakehouseLive === true")
        page.locator("#region-table").wait_for()
    for page in pages.values():
        seat_line(page, "ivo").and_(page.locator("[data-presence=here]")).wait_for()
    clock = host.locator("#region-table .clock").first
    host.wait_for_function(
        "() => /\\d:\\d\\d/.test(document.querySelector('#region-table .clock').textContent)"
    )
    assert "Clock: 4 s a move plus a 12 s bank" in host.locator("#region-table").inner_text()
    host.locator("#region-table").screenshot(path=str(artifacts / "presence-all-here.png"))

    pages["ivo"].close()  # mid-night: the first pick is not made
    others = {name: pages[name] for name in NAMES[:2]}
    for page in others.values():
        page.locator(
            "#region-table li[data-presence=dropped], #region-table li[data-presence=away]",
            has_text="ivo",
        ).wait_for()

    peeled = dict.fromkeys(others, True)  # keep one pastry a pick, no Peel choices
    told = False
    for _ in range(600):
        if all(night_over(page) for page in others.values()):
            break
        acted = False
        for name, page in others.items():
            acted = take_a_turn(page, peeled, name) or acted
        if not told and "Time ran out for ivo" in host.locator("#region-table").inner_text():
            told = True
            host.locator("#region-table").screenshot(path=str(artifacts / "presence-stand-in.png"))
        if not acted:
            host.wait_for_timeout(100)
    else:
        raise AssertionError("the night did not reach its results")

    assert told
    for page in others.values():
        assert "away too long: a greedy bot plays" in seat_line(page, "ivo").inner_text()
        assert page.locator("#region-results table.bake").count() == 3
    rows = stand_in_rows(daphne_site["db"], "ivo")
    bots = [bot for bot, _ in rows]
    assert bots[:3] == ["stand-in"] * 3 and set(bots[3:]) <= {"greedy"}
    assert {handed for _, handed in rows} == {"absent"}
    assert clock.count() == 0  # the night is over: no clock runs
    host.screenshot(path=str(artifacts / "presence-night-over.png"), full_page=True)
    for context in contexts:
        context.close()
