"""A person chooses master bots in the lobby and plays them: the site's own runner hands each
master's decision to its thinking pool (games/thinking.py, worker processes of the Daphne under
test) and the picks come back to the page, pick after pick."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, lock_first_pastry, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]


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
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, "master_mia")
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
    for _ in range(3):  # each pick waits on the masters' picks before the batch passes
        lock_first_pastry(page)
        page.locator("#batch-form button.card").first.wait_for()
    # The batch's cards can still be the pick just locked when the loop ends (the board that
    # passes the batch has not come yet): wait on the stored picks, not on the page's first look.
    page.wait_for_function(
        "() => /Pick\\s*4/.test(document.querySelector('#board').innerText)", timeout=PATIENCE
    )
    assert masters_picked(db, game_id) >= 2 * 3
