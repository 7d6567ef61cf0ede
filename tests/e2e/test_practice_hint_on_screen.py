"""A practice table's hint is for the board it was given at, and a refused hint says why."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import lock_first_pastry, sign_up, version

pytestmark = pytest.mark.e2e


def hint_text(page: Any) -> str:
    """What the hint line beside the board says now."""
    return str(page.locator("#board-hint").inner_text()).strip()


def test_a_hint_leaves_with_its_board_and_a_refused_one_says_why(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    sign_up(page, base, "hint_hana")
    page.goto(base + "/games/new/")
    page.select_option("#id_kind", "midnight-bakery")
    page.fill("#id_capacity", "2")
    page.check("#id_practice")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.get_by_role("button", name="Add a greedy bot").click()
    page.get_by_text("greedy bot", exact=False).first.wait_for()
    page.get_by_role("button", name="Start the night").click()
    page.locator("#batch-form button.card").first.wait_for()

    page.get_by_role("button", name="Suggest a move").click()
    page.wait_for_function(
        "() => document.getElementById('board-hint').textContent.startsWith('Suggested:')"
    )
    assert page.locator("#board-hint").get_attribute("data-version") == version(page)
    page.screenshot(path=str(artifacts / "mb-practice-hint.png"))

    # The next pick's board arrives: the hint was for the last one and goes.
    lock_first_pastry(page)
    page.wait_for_function("() => document.getElementById('board-hint').textContent === ''")

    # A press that crosses the table becoming rated (the next board would hide the button): the
    # refusal shows in the hint's own line, in words. The form is sent as a press sends it.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games_game SET rated = 1 WHERE id = ?", (game_id,))
    page.evaluate("() => htmx.trigger(document.querySelector('.board-hint-form'), 'submit')")
    page.wait_for_function(
        "() => document.getElementById('board-hint').textContent.includes('this table is rated')"
    )
    assert "refreshed" not in str(page.locator("#board-message").inner_text())
    ctx.close()
