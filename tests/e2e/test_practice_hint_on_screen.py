"""A practice table's hint is for the board it was given at, and a refused hint says why; a
Cakehalla sheet that covers the page (put back down to 10) gives its own hint."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import lock_first_pastry, person, version

pytestmark = pytest.mark.e2e


def hint_text(page: Any) -> str:
    """What the hint line beside the board says now."""
    return str(page.locator("#board-hint").inner_text()).strip()


def test_a_hint_leaves_with_its_board_and_a_refused_one_says_why(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    page = person(browser, base, "hint_hana", viewport={"width": 390, "height": 844})
    page.goto(base + "/games/new/")
    page.select_option("#id_kind", "midnight-bakery")
    page.fill("#id_capacity", "2")
    page.check("#id_practice")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.get_by_role("button", name="Add a steady bot").click()
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
    page.context.close()


SCREENS = {
    "small-phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 900},
}


def hold_twelve(db: str, game_id: int, username: str) -> None:
    """The stored table, with this person holding 12 ingredients after a take: they must put
    back down to 10 (a new version, so the page's next read is of this table)."""
    with sqlite3.connect(db) as conn:
        (position,) = conn.execute(
            "SELECT s.position FROM games_seat s JOIN accounts_user u ON u.id = s.user_id"
            " WHERE s.game_id = ? AND u.username = ?",
            (game_id, username),
        ).fetchone()
        (snapshot,) = conn.execute(
            "SELECT snapshot FROM games_game WHERE id = ?", (game_id,)
        ).fetchone()
        state = json.loads(snapshot)
        state["bakers"][position]["tokens"] = [3, 3, 3, 2, 1, 0]
        state["market"] = [1, 1, 1, 2, 3, 5]
        state.update(turn=position, pending="return")
        conn.execute(
            "UPDATE games_game SET snapshot = ?, version = version + 1 WHERE id = ?",
            (json.dumps(state), game_id),
        )


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_put_back_sheet_gives_its_hint_on_a_phone_and_a_desktop(
    browser: Any, daphne_site: dict[str, str], artifacts: Path, screen: str
) -> None:
    """The sheet "Put back down to 10" covers the page; its own "Suggest a move" answers in it."""
    base, db = daphne_site["url"], daphne_site["db"]
    phone = screen != "desktop"
    name = f"sheet_{screen}".replace("-", "_")
    page = person(browser, base, name, viewport=SCREENS[screen], is_mobile=phone, has_touch=phone)
    page.goto(base + "/games/new/")
    page.select_option("#id_kind", "cakehalla")
    page.fill("#id_capacity", "2")
    page.check("#id_practice")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.get_by_role("button", name="Add a steady bot").click()
    page.get_by_text("greedy bot", exact=False).first.wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.locator('#board-live[data-your-move="yes"]').wait_for(state="attached")

    hold_twelve(db, game_id, name)
    page.reload()
    sheet = page.get_by_role("dialog", name="Put back down to 10")
    sheet.wait_for()
    sheet.get_by_role("button", name="Suggest a move").click()  # in sight, on top: pressable
    page.wait_for_function(
        "() => document.getElementById('sheet-hint').textContent.startsWith('Suggested: Put back')"
    )
    line = sheet.get_by_role("status").filter(has_text="Suggested:")
    assert line.is_visible()
    box = line.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SCREENS[screen]["height"]
    assert "You may hold 10" in line.inner_text()
    # A redraw of the same board (a reconnect's push) keeps the hint in the sheet.
    said = page.evaluate(
        """async () => {
          const root = document.getElementById('live');
          const answer = await fetch(root.dataset.board, { headers: { 'HX-Request': 'true' } });
          window.bakehouseApply(await answer.text());
          return document.getElementById('sheet-hint').textContent;
        }"""
    )
    assert said.startswith("Suggested: Put back")
    wide = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the page scrolls sideways by {wide} px"
    page.screenshot(path=str(artifacts / f"ck-put-back-hint-{screen}.png"))
    page.context.close()
