"""A person chooses master bots in the lobby and plays them: the site's own runner hands each
master's decision to its thinking pool (games/thinking.py, worker processes of the Daphne under
test) and the picks come back to the page, pick after pick."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, lock_first_pastry, person

pytestmark = pytest.mark.e2e


# The masters think in the site's thinking processes, niced below the site (THINKING_NICENESS):
# on a loaded machine two masters' picks took over 30 s (PATIENCE) of wall time.
MASTERS_PATIENCE = 4 * PATIENCE


# Pick n is on the board and it is the person's move ("Pick n" first shows when pick n starts).
PICK_IS_MINE = """n => {
    const live = document.getElementById("board-live");
    const board = document.getElementById("board");
    return live !== null && board !== null && live.dataset.yourMove === "yes"
        && new RegExp("Pick\\\\s*" + n + "\\\\b").test(board.innerText);
}"""


def masters_picked(db: str, game_id: int) -> int:
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM games_action WHERE game_id = ? AND bot = 'master'", (game_id,)
        ).fetchone()
    return int(row[0])


def test_a_practice_night_against_masters_goes_pick_by_pick(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    page = person(browser, base, "master_mia", viewport={"width": 390, "height": 844})
    page.goto(base + "/")
    bots = page.locator("#bots-midnight-bakery")
    assert "Master: weighs hundreds of ways" in bots.inner_text()
    bots.select_option("master")
    page.locator("#quick-midnight-bakery").get_by_role(
        "button", name=re.compile("^Practice")
    ).click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.locator("#batch-form button.card").first.wait_for()
    page.screenshot(path=str(artifacts / "mb-against-masters.png"))
    for pick in (1, 2, 3):  # each pick waits on the masters' picks before the batch passes
        # That pick's board, where it is the person's move: not the cards of the pick just
        # locked (shown until the masters' picks pass the batch: a press on them is refused),
        # nor a board that moved on by a master's lock before the person's own landed.
        page.wait_for_function(PICK_IS_MINE, arg=pick, timeout=MASTERS_PATIENCE)
        lock_first_pastry(page)
    # Pick 4: the masters' picks of pick 3 are stored.
    page.wait_for_function(PICK_IS_MINE, arg=4, timeout=MASTERS_PATIENCE)
    assert masters_picked(db, game_id) >= 2 * 3
