"""Played with the keyboard alone (Tab, Enter, Space), and heard from the page's live regions, each
thing once: two bakers' whole night of Midnight Bakery (what the other kept, that a new batch
waits, each bake's scores, the night's end) and a person's whole Cakehalla game against a bot (the
bot's moves, your turn, the end and the points); focus stays on the page when the board is swapped
(issue 50, item 5)."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from games.engines import cakehalla as engine
from tests.e2e.cakehalla_brain import decide, feature_of, find_seed
from tests.e2e.keyboard import HEARING, focus_is_kept, heard, tab_to
from tests.e2e.pages import open_table, person, two_at_a_table, version
from tests.e2e.test_cakehalla_play import after_the_bot, stored, wait_for_version

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - playwright is a dev dependency
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

pytestmark = pytest.mark.e2e

WHAT_SHOWS = """() => {
  if (document.querySelector('#results-form button')) return 'results';
  if (document.querySelector('#batch-form[data-peel] button.card')) return 'peel';
  if (document.querySelector('#batch-form button.card')) return 'batch';
  return '';
}"""


# Each baker's name and score as the night's results table shows them.
SCORES = """() => [...document.querySelector('#region-results .night table').tBodies[0].rows]
  .map(row =>
  [row.querySelector('th').firstChild.textContent.trim(),
   row.querySelector('td:last-child').textContent.trim()])"""


def moved_on(page: Any, before: str) -> None:
    page.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
    )


def pick_by_keyboard(page: Any) -> bool:
    """Do what the screen asks with Tab and Enter: close a bake's results, or keep the first
    pastry of the batch (with a Peel in hand: press it, then "Keep one"). False if nothing."""
    shows = page.evaluate(WHAT_SHOWS)
    if not shows:
        return False
    before = version(page)
    if shows == "results":
        tab_to(page, "#results-form button")
        page.keyboard.press("Enter")
        page.locator("#results-form").wait_for(state="detached")
        return True
    tab_to(page, "#batch-form button.card")
    page.keyboard.press("Enter")
    if shows == "peel":
        tab_to(page, "#batch-form [data-submit=keep]:not([disabled])")
        page.keyboard.press("Space")
    moved_on(page, before)
    return True


LOGGED = """() => Array.from(document.querySelectorAll('[data-news^="log-"]'))
    .map(item => item.textContent.replace(/\\s+/g, ' ').trim())"""
"""The night's log as the page shows it at the end, each line's words."""


def seat_of(page: Any) -> str:
    words = page.locator("#region-mine h2").inner_text()
    found = re.fullmatch(r"You are (.+)", words.strip())
    assert found, words
    return found.group(1)


def test_two_bakers_play_a_night_by_keyboard_and_hear_it(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    ada, ben = two_at_a_table(
        browser, daphne_site["url"], ("sr-ada", "sr-ben"), "midnight-bakery", HEARING
    )
    seats = {id(ada): seat_of(ada), id(ben): seat_of(ben)}
    lost_focus = []
    for _ in range(600):
        if all(p.locator("#region-results .night").count() for p in (ada, ben)):
            break
        acted = False
        for page in (ada, ben):
            try:
                if pick_by_keyboard(page):
                    acted = True
                    if not focus_is_kept(page):
                        lost_focus.append(version(page))
            except PlaywrightTimeout:
                acted = True  # the board was swapped under the keys: look again
        if not acted:
            ada.wait_for_timeout(50)
    else:
        raise AssertionError("the night did not reach its results")
    ada.screenshot(path=str(artifacts / "mb-screen-reader-end.png"), full_page=True)
    assert not lost_focus, f"focus fell to the page after the moves of versions {lost_focus}"
    # Each baker's picks are stored as their own (keyed in by the test, no stand-in for them).
    # The test's own tally of picks is no measure: an Enter on a board swapped under the keys may
    # keep nothing while the version still moves on by the other baker's pick.
    game_id = int(ada.url.rstrip("/").rsplit("/", 1)[1])
    with sqlite3.connect(daphne_site["db"]) as conn:
        stored_picks = conn.execute(
            "SELECT u.username, sum(a.bot = ''), sum(a.bot != '') FROM games_action a"
            " JOIN accounts_user u ON u.id = a.user_id WHERE a.game_id = ? GROUP BY u.username",
            (game_id,),
        ).fetchall()
    assert sorted(name for name, _, _ in stored_picks) == ["sr-ada", "sr-ben"], stored_picks
    assert all(own >= 3 and not stand_in for _, own, stand_in in stored_picks), stored_picks

    for page in (ada, ben):
        page.wait_for_function(
            "() => (window.heardNews || []).some(l => l.text.startsWith('The night is over'))"
        )
        said = heard(page)
        # Every pastry either baker kept is said once on each screen, as the night's log says it
        # (the log, not the test's own tally: a board swapped between reading a card's name and
        # pressing Enter can keep another card than the one read).
        logged = page.evaluate(LOGGED)
        assert Counter(line for line in said if " kept a " in line) == Counter(
            line for line in logged if " kept a " in line
        ), said
        for seat in seats.values():
            assert sum(line.startswith(f"{seat} kept a ") for line in logged) >= 3, logged
        # A new batch is said once a pick, before each of this baker's picks.
        turns = [line for line in said if line.startswith("Your turn:")]
        assert len(turns) == len(set(turns)) >= 3, turns
        assert "Your turn: bake 3," in " ".join(turns)
        for bake in (1, 2, 3):
            assert sum(line.startswith(f"Bake {bake} is scored:") for line in said) == 1, said
        ends = [line for line in said if line.startswith("The night is over")]
        assert len(ends) == 1, said
        for player, score in page.evaluate(SCORES):
            assert f"{player} {score}" in ends[0], (ends[0], player, score)
        assert re.search(r"The winners? (is|are) ", ends[0]), ends[0]
        assert heard(page, urgent=True) == []  # nothing was refused


def pile_of(tier: int) -> str:
    return f"#region-counter details.pile-offer:has(button[value*='\"tier\":{tier}}}'])"


def offer_of(region: str, card: str) -> str:
    return f'#region-{region} details.offer:has(button[value*=\'"card":"{card}"\'])'


def press(page: Any, selector: str, key: str = "Enter") -> None:
    tab_to(page, selector)
    page.keyboard.press(key)


def move_by_keyboard(page: Any, action: Mapping[str, Any], reserved: set[str]) -> None:
    """Make the move with Tab to each control and Enter or Space on it, never a click."""
    kind = action["type"]
    if kind == "take":
        for name in action["ingredients"]:
            press(page, f'#market-form [data-ing="{name}"]', "Space")
        press(page, "#market-form [data-take]:not([disabled])")
    elif kind == "reserve" and "tier" in action:
        press(page, pile_of(action["tier"]) + " > summary")
        press(page, pile_of(action["tier"]) + " button")
    elif kind in ("reserve", "buy"):
        region = "mine" if kind == "buy" and action["card"] in reserved else "counter"
        offer = offer_of(region, action["card"])
        press(page, offer + " > summary")
        verb = '"type":"buy"' if kind == "buy" else '"type":"reserve"'
        press(page, f"{offer} button[value*='{verb}']")
    elif kind == "return":
        for name, n in action["ingredients"].items():
            for _ in range(n):
                press(page, f'#return-form [data-back="{name}"] [data-step="1"]', "Space")
        press(page, "#return-form [data-return]:not([disabled])")
    elif kind == "customer":
        press(page, f'#region-dialog button[value*=\'"customer":"{action["customer"]}"\']')
    else:
        press(page, "#market-form button[name=action]")


def test_a_person_plays_cakehalla_against_a_bot_by_keyboard_and_hears_it(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    page = person(browser, base, "sr-cleo", HEARING, viewport={"width": 1280, "height": 900})
    context = page.context
    table = open_table(page, base, "cakehalla", 2)
    game_id = int(table.rstrip("/").rsplit("/", 1)[1])
    press(page, "form:has(input[name=level][value=greedy]) button")
    page.get_by_text("greedy bot", exact=False).first.wait_for()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games_game SET seed = ? WHERE id = ?", (find_seed("greedy"), game_id))
    press(page, "form[action$='/start/'] button:not([disabled])")
    page.locator("#region-counter").wait_for()

    done: set[str] = set()
    moves = 0
    lost_focus = []
    for _ in range(200):
        state, current, status = after_the_bot(db, game_id)
        if status == "over":
            break
        wait_for_version(page, current)
        view: Mapping[str, Any] = engine.view(state, 0)
        action = decide(view, engine.legal_actions(state, 0), done)
        reserved = {r["id"] for r in view["seats"][0]["reserved"]}
        done.add(feature_of(action, reserved))
        move_by_keyboard(page, action, reserved)
        moves += 1
        wait_for_version(page, current + 1)
        if not focus_is_kept(page):
            lost_focus.append(f"{current + 1} {action['type']}")
    else:
        raise AssertionError("the game did not end")
    _, final, _ = stored(db, game_id)
    wait_for_version(page, final)
    page.wait_for_function(
        "() => (window.heardNews || []).some(l => l.text.startsWith('The game is over. Points'))"
    )
    page.screenshot(path=str(artifacts / "cakehalla-screen-reader-end.png"), full_page=True)
    assert not lost_focus, f"focus fell to the page after the moves of versions {lost_focus}"

    said = heard(page)
    # The whole kitchen log (shown whole once the game is over) was said, each line once: the
    # bot's moves and the person's own.
    log = [
        " ".join(line.split())
        for line in page.locator("#region-info ol.kitchen-log li").all_text_contents()
    ]
    assert len(log) > moves
    assert Counter(line for line in said if line in set(log)) == Counter(log)
    assert any("(b1)" in line or "bot" in line.lower() for line in log)
    # Each of the person's turns was said once, before the move made on it.
    assert sum("Your turn:" in line for line in said) == moves, said
    ends = [line for line in said if line.startswith("The game is over. Points:")]
    assert len(ends) == 1, said
    for player, points in page.evaluate(POINTS):
        assert f"{player} {points}" in ends[0], (ends[0], player, points)
    assert heard(page, urgent=True) == []  # nothing was refused
    context.close()


# Each baker's name and points as the final standings show them.
POINTS = """() => [...document.querySelector('#final-title').parentNode.querySelector('table')
  .tBodies[0].rows].map(row => [row.querySelector('th').firstChild.textContent.trim(),
  row.querySelector('td:nth-of-type(2)').textContent.trim()])"""
