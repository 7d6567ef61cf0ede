"""A tournament's page shows standings that move live as a table ends: one person makes a
small Swiss (tables of two, one round, relaxed pace) from the tournaments page, two join from
its page and keep it open (so they count as here), the site starts it, their pages go to their
table by themselves (page.go) and both resign (house bots play it to its end; two resigned seats
share the last place, here the first: 3 points each), and a third person's page, never
reloaded, shows the points, the finished standings and the podium."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.e2e.pages import lock_first_pastry, open_table, open_tournament, person
from tests.e2e.test_phone_pages import too_wide, widest

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PLAY_PATIENCE = 120_000  # ms: a table played to its end by house bots
TABLE = re.compile(r".*/games/(\d+)/$")


def start_now(db: str, url: str) -> None:
    """Bring the tournament's start forward to this moment, as if its minute had passed."""
    pk = int(url.rstrip("/").rsplit("/", 1)[1])
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tournaments_tournament SET starts_at = ? WHERE id = ?", (now, pk))


def two_entrants(browser: Any, base: str, prefix: str) -> tuple[list[Any], str]:
    """A maker's small Swiss (open_tournament) and the pages of its maker and a rival, both
    joined from its page; the tournament's URL."""
    maker = person(browser, base, f"{prefix}_maker", viewport=DESKTOP)
    url = open_tournament(maker, base)
    players = [maker, person(browser, base, f"{prefix}_rival", viewport=DESKTOP)]
    for page in players:
        page.goto(url)
        page.get_by_role("button", name="Join").click()
        page.get_by_text("You are in, one of").wait_for()  # no place before a game has ended
    return players, url


def live(page: Any) -> None:
    """Wait until the tournament page's socket is open."""
    page.wait_for_function("() => document.body.dataset.tournamentLive === 'yes'")


def shot(page: Any, artifacts: Any, name: str) -> None:
    page.screenshot(path=str(artifacts / f"tournament-{name}.png"), full_page=True)


def resign(page: Any) -> None:
    """Resign the game on the table page (a house bot plays the seat to its end)."""
    page.locator("#resign-confirm summary").click()
    page.get_by_role("button", name="Yes, resign this game").click()
    page.get_by_text("You resigned").wait_for()


def test_a_tournament_page_shows_standings_that_move_as_a_table_ends(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    players, url = two_entrants(browser, base, "swiss")
    maker, rival = players
    for page in players:
        live(page)
    watcher = person(browser, base, "swiss_watcher", viewport=DESKTOP)
    watcher.goto(base + "/tournaments/")
    shot(watcher, artifacts, "list-desktop")
    watcher.goto(url)
    live(watcher)
    phone = person(browser, base, "swiss_phone", viewport=PHONE)
    phone.goto(base + "/tournaments/")
    shot(phone, artifacts, "list-390")
    assert too_wide(phone) == 0, widest(phone)
    phone.goto(url)
    live(phone)
    watcher.evaluate("() => { window.notReloaded = true; }")
    standings = watcher.locator("#standings")
    assert "2 in so far" in watcher.locator("#tournament-live").inner_text()
    assert standings.locator("tr[data-user]").count() == 2
    shot(watcher, artifacts, "before-start-desktop")
    shot(phone, artifacts, "before-start-390")
    assert too_wide(phone) == 0, widest(phone)

    # Its minute comes forward (the test need not wait it out): the runner's next sweep (every
    # TOURNAMENT_SWEEP_SECONDS) starts it, and each player's page goes to the table.
    start_now(daphne_site["db"], url)
    for page in players:
        page.wait_for_url(TABLE, timeout=PLAY_PATIENCE)
    watcher.get_by_text("Round 1 of 1 under way").wait_for()
    # A Swiss takes nobody once started: the watcher's Join goes, and says why, by itself.
    watcher.get_by_text("You cannot join: This Swiss has started").wait_for()
    assert watcher.get_by_role("button", name="Join").count() == 0
    watch = watcher.locator("#tables a", has_text="Watch")
    assert watch.count() == 1
    shot(watcher, artifacts, "running-desktop")
    assert watcher.locator("#standings td strong", has_text="3").count() == 0

    assert maker.url == rival.url
    for page in players:
        resign(page)

    # The house bots play the table to its end; the watching page moves by itself.
    watcher.locator(".podium").wait_for(timeout=PLAY_PATIENCE)
    assert watcher.evaluate("() => window.notReloaded === true")
    rows = watcher.locator("#standings tr[data-user]")
    assert rows.count() == 2
    assert [rows.nth(i).locator("td strong").inner_text() for i in range(2)] == ["3", "3"]
    assert watcher.locator("#tables a", has_text="Replay").count() == 1
    assert "Finished on" in watcher.locator("#tournament-live").inner_text()
    shot(watcher, artifacts, "finished-desktop")
    phone.locator(".podium").wait_for()
    shot(phone, artifacts, "finished-390")
    assert too_wide(phone) == 0, widest(phone)
    for page in [*players, watcher, phone]:
        page.context.close()


def test_a_swiss_rounds_table_pages_take_their_new_table_in_place_and_play_there(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    """Two entrants wait at tables of their own (the same game) when the round starts: each
    page takes its new table from the socket's message (games/boards/page.py, live.js swapTo),
    with no request for the page and no reload, then follows that table: its socket, a move
    made there, its address, and Back to the table left."""
    base = daphne_site["url"]
    players, url = two_entrants(browser, base, "swap")
    maker, rival = players
    left = [open_table(page, base, "midnight-bakery", 4) for page in players]
    asked: list[str] = []  # the pages asked for (documents), from here on
    for page in players:
        page.wait_for_function("() => document.body.dataset.socket === 'live'")
        page.evaluate("() => { window.notReloaded = true; }")
        page.on(
            "request",
            lambda request: (
                asked.append(request.url) if request.resource_type == "document" else None
            ),
        )

    start_now(daphne_site["db"], url)
    for page, was in zip(players, left, strict=True):
        page.wait_for_url(
            lambda at, was=was: bool(TABLE.match(at)) and at != was, timeout=PLAY_PATIENCE
        )
        page.wait_for_function("() => document.body.dataset.socket === 'live'")
        assert page.evaluate("() => window.notReloaded === true")
        game = TABLE.match(page.url)
        assert game is not None
        assert page.locator("#live").get_attribute("data-socket") == f"/ws/games/{game.group(1)}/"
        assert page.locator(".played-for").inner_text() == "Round 1 of Evening Swiss"
        assert page.title().endswith(" · Bakehouse") and page.title() != "Bakehouse"
        # Focus as on a page loaded: from the top, then (board.js) on the first choice once
        # the new socket's board lands; never on the table left.
        assert page.evaluate(
            "() => document.activeElement === document.body ||"
            " !!document.activeElement.closest('#batch-form')"
        )
        assert page.locator("#news p").count() >= 1  # the new table's title said
    assert maker.url == rival.url
    assert asked == []
    shot(maker, artifacts, "swapped-desktop")

    lock_first_pastry(maker)  # a move made at the new table, on its socket
    assert maker.evaluate("() => window.notReloaded === true")
    assert asked == []
    maker.go_back()
    maker.wait_for_url(left[0])
    socket_left = "/ws/games/" + left[0].rstrip("/").rsplit("/", 1)[1] + "/"
    maker.locator(f"#live[data-socket='{socket_left}']").wait_for(state="attached")
    for page in players:
        page.context.close()
