"""Two bakers play a whole night of Midnight Bakery with the keyboard alone, and each hears from the
page's live regions what the other kept, that a new batch waits, each bake's scores and the night's
end, each once; focus stays on the page when the board is swapped (issue 50, item 5)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.keyboard import HEARING, focus_is_kept, heard, tab_to
from tests.e2e.pages import two_at_a_table, version

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - playwright is a dev dependency
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

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


def pick_by_keyboard(page: Any, seat: str, kept: list[str]) -> bool:
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
    label = str(page.evaluate("() => document.activeElement.getAttribute('aria-label')"))
    page.keyboard.press("Enter")
    if shows == "peel":
        tab_to(page, "#batch-form [data-submit=keep]:not([disabled])")
        page.keyboard.press("Space")
    moved_on(page, before)
    kept.append(f"{seat} kept a {label.removeprefix('Keep ')}.")
    return True


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
    kept: list[str] = []
    made = {id(ada): 0, id(ben): 0}
    lost_focus = []
    for _ in range(600):
        if all(p.locator("#region-results .night").count() for p in (ada, ben)):
            break
        acted = False
        for page in (ada, ben):
            try:
                if pick_by_keyboard(page, seats[id(page)], kept):
                    acted = True
                    made[id(page)] += 1
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

    for page in (ada, ben):
        page.wait_for_function(
            "() => (window.heardNews || []).some(l => l.text.startsWith('The night is over'))"
        )
        said = heard(page)
        # Every pastry either baker kept is said once on each screen, as the night's log says it.
        assert Counter(line for line in said if " kept a " in line) == Counter(kept), said
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
