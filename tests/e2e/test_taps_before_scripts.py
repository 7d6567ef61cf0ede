"""A tap before the page's scripts have loaded makes the move (issue 46, item 3).

In an arena, pages just moved to a new table were tapped before their scripts ran: the pick forms
had no method or action, so the tap was a GET (`/games/54/?action={...}`) and the move was lost.
Here the page's scripts never load (every .js request is aborted), as on a slow phone in the
moment after a page arrives: a pick (Midnight Bakery) and a reserve (Cakehalla) are plain form
posts, stored, and the page comes back with the new board; a control only a script can work
(Cakehalla's ingredients) is not offered meanwhile.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import pytest

from tests.e2e.pages import two_at_a_table, version

pytestmark = pytest.mark.e2e

SCRIPTS = re.compile(r".*\.js(\?.*)?$")


def without_scripts(page: Any) -> None:
    """The page again, its scripts held back: nothing but the HTML works."""
    page.route(SCRIPTS, lambda route: route.abort())
    page.reload()
    assert page.evaluate("() => typeof window.htmx") == "undefined"


def moves_by(db: str, table_url: str, name: str) -> int:
    """The moves stored at that table for that person (the site's own database)."""
    game = int(table_url.rstrip("/").rsplit("/", 1)[1])
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT count(*) FROM games_action a JOIN accounts_user u ON u.id = a.user_id"
            " WHERE a.game_id = ? AND u.username = ?",
            (game, name),
        ).fetchone()
    return int(row[0])


def test_a_pick_tapped_before_the_scripts_load_is_made(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    names = ("noscript_mb_a", "noscript_mb_b")
    page, _ = two_at_a_table(browser, base, names, "midnight-bakery")
    table = page.url
    without_scripts(page)
    before = int(version(page))
    with page.expect_navigation():
        page.locator("#batch-form button.card").first.click()
    assert page.url == table  # back at the table (post/redirect/get), no ?action= in sight
    assert int(version(page)) > before
    assert "Locked. Waiting for the others." in page.locator("#region-mine").inner_text()
    assert moves_by(db, table, names[0]) == 1


def test_a_reserve_tapped_before_the_scripts_load_is_made(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    names = ("noscript_ck_a", "noscript_ck_b")
    pages = two_at_a_table(browser, base, names, "cakehalla")
    for page in pages:  # the page as the server draws it now: whose move it is, for certain
        without_scripts(page)
    mover = next(
        i for i, p in enumerate(pages) if p.locator("#board-live[data-your-move=yes]").count()
    )
    page, table = pages[mover], pages[mover].url
    # The ingredients need the script to be put together: not offered until it runs.
    token = page.locator("#market-form button.mtoken").first
    assert token.evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    before = int(version(page))
    offer = page.locator("#counter-form details[data-offer]").first
    offer.locator("summary").click()
    with page.expect_navigation():
        offer.get_by_role("button", name="Reserve", exact=True).click()
    assert page.url == table
    assert int(version(page)) > before
    assert "1 of" in page.locator("#region-mine .reserved h3").inner_text()
    assert moves_by(db, table, names[mover]) == 1
