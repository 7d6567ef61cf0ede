"""A tap at the very first moment a new batch shows is never lost (issue 30, point 1).

Two people and a greedy bot at a Midnight Bakery table, a phone and a desktop. At every pick of a
whole night each person presses as soon as their new batch shows, as a finger does: the pointer
goes down on the pastry and comes up a moment later, while the pieces of the reveal and the bot's
lock are still arriving. One person holds a Baker's Peel for most of the night (a pastry, then
"Keep one"), the other never does (a single press). Every pick must lock, with no second press.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.engines import midnight_bakery as engine
from tests.e2e.pages import (
    PATIENCE,
    errors_seen,
    open_table,
    sign_up,
    take_a_seat,
    two_at_a_table,
    version,
)

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}
HOLD_MS = 80  # a finger's press: down, then up this much later
LOCKED_WITHIN_MS = 20_000  # a lost tap never locks; a loaded machine may take a while

# The page can pick: a batch form whose moment differs from the one last pressed at.
CAN_PICK = """old => {
  const form = document.querySelector('#batch-form');
  const moment = document.getElementById('board-moment');
  return !!(form && form.querySelector('button.card') && moment && moment.value !== old);
}"""
# The pick pressed at `old` was taken: the batch form is gone, or the moment moved on.
LOCKED = """old => {
  const moment = document.getElementById('board-moment');
  return !document.querySelector('#batch-form') || !moment || moment.value !== old;
}"""
TOUCH: dict[int, Any] = {}
RESULTS_OPEN = "() => [...document.querySelectorAll('#board button')].some((b) =>"
RESULTS_OPEN += " b.textContent.trim() === 'Back to the ovens')"
OVER = "() => /The night's results/.test(document.getElementById('board')?.innerText || '')"


def seed_with_a_first_peel_for_one() -> int:
    """A three-seat seed whose first batch holds a Peel for seat 0 and none for seat 1."""
    for seed in range(1, 20_000):
        state = engine.new_game(3, seed=seed)
        faces = [[c["face"] for c in engine.view(state, seat)["batch"]] for seat in (0, 1)]
        if "peel" in faces[0] and "peel" not in faces[1]:
            return seed
    raise AssertionError("no seed deals a first Peel to seat 0 alone")


def moment(page: Any) -> str:
    field = page.locator("#board-moment")
    return str(field.input_value()) if field.count() else ""


# Where the person's eyes land: the Peel when they want it and it is there, else the first
# pastry; holding a Peel, "Keep one" after the pastry. Scrolled into view at once; its centre.
AIM = """([wantsPeel, what]) => {
  const form = document.querySelector('#batch-form');
  if (!form) return null;
  const peel = form.querySelector("button.card[aria-label*='Peel']");
  const target = what === 'keep' ? form.querySelector('[data-submit=keep]')
    : (wantsPeel && peel) || form.querySelector('button.card');
  if (!target) return null;
  target.scrollIntoView({block: 'center', behavior: 'instant'});
  const box = target.getBoundingClientRect();
  return {x: box.x + box.width / 2, y: box.y + box.height / 2,
          peel: form.hasAttribute('data-peel')};
}"""


def tap(page: Any, x: float, y: float) -> None:
    """A finger's press at (x, y): down, a moment, up; a touch on the phone, a mouse elsewhere."""
    touch = TOUCH.get(id(page))
    if touch is not None:
        start = {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        touch.send("Input.dispatchTouchEvent", start)
        page.wait_for_timeout(HOLD_MS)
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        return
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(HOLD_MS)
    page.mouse.up()


def press_pick(page: Any, wants_peel: bool) -> None:
    """The person's pick, pressed the moment it is found (see AIM)."""
    aim = page.evaluate(AIM, [wants_peel, "pastry"])
    assert aim is not None, "no batch to press"
    tap(page, aim["x"], aim["y"])
    if aim["peel"]:
        page.wait_for_function("() => !document.querySelector('[data-submit=keep]')?.disabled")
        keep = page.evaluate(AIM, [wants_peel, "keep"])
        tap(page, keep["x"], keep["y"])


def locked(page: Any, at: str, who: str) -> None:
    """The pick pressed at moment `at` locks, with no second press and no refusal."""
    try:
        page.wait_for_function(LOCKED, arg=at, timeout=LOCKED_WITHIN_MS)
    except Exception as error:
        shown = page.locator("#region-mine").inner_text()
        raise AssertionError(f"{who}'s tap at {at!r} was lost; the page shows: {shown}") from error
    message = page.locator("#board-message")
    assert "error" not in (message.get_attribute("class") or ""), message.inner_text()


def seated_with_a_bot(browser: Any, base: str, names: tuple[str, str], db: str) -> list[Any]:
    """Two people (a desktop host, a phone guest) and a greedy bot, the night started."""
    pages = []
    for name, viewport in zip(names, (DESKTOP, PHONE), strict=True):
        phone = viewport is PHONE
        ctx = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
        page = ctx.new_page()
        if phone:  # the phone's finger: touches through the browser's own input
            TOUCH[id(page)] = ctx.new_cdp_session(page)
        page.set_default_timeout(PATIENCE)
        sign_up(page, base, name)
        pages.append(page)
    host, guest = pages
    table = open_table(host, base, "midnight-bakery", 3)
    take_a_seat(guest, table)
    host.get_by_role("button", name="Add a steady bot").click()
    host.get_by_text("greedy bot").first.wait_for()
    game_id = int(re.findall(r"\d+", table)[-1])
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE games_game SET seed = ? WHERE id = ?",
            (seed_with_a_first_peel_for_one(), game_id),
        )
    host.get_by_role("button", name="Start the night").click()
    for page in pages:
        page.wait_for_function("() => window.bakehouseLive === true")
    return pages


def night_of_first_taps(pages: list[Any], together: bool) -> int:
    """Play the night pressing at the first moment of every pick; the picks pressed. Together:
    both press as soon as both batches show. One by one: the first (each pick the other) presses
    as soon as the batch shows, the second as soon as the first's lock reaches their page."""
    host, guest = pages
    wants_peel = {id(host): True, id(guest): False}
    pressed_at = {id(host): "", id(guest): ""}
    picks = 0

    def press(page: Any) -> None:
        nonlocal picks
        pressed_at[id(page)] = moment(page)
        press_pick(page, wants_peel[id(page)])
        picks += 1

    for turn in range(200):
        for page in pages:
            back = page.get_by_role("button", name="Back to the ovens")
            if back.count():
                with contextlib.suppress(PlaywrightTimeout):  # closed meanwhile: nothing to press
                    back.click(timeout=3000)
                back.wait_for(state="detached")  # the results are closed on this page
        for page in pages:  # a new pick, the night's end, or a bake's results to close first
            page.wait_for_function(
                f"old => ({CAN_PICK})(old) || ({OVER})() || ({RESULTS_OPEN})()",
                arg=pressed_at[id(page)],
            )
        if any(page.evaluate(OVER) for page in pages):
            return picks
        if any(page.evaluate(RESULTS_OPEN) for page in pages):
            continue  # closed at the top of the loop
        first, second = pages if turn % 2 == 0 else pages[::-1]
        if together:
            press(first)
            press(second)
        else:
            shown = version(second)
            press(first)
            locked(first, pressed_at[id(first)], "the first")
            second.wait_for_function(f"() => document.body.dataset.liveVersion !== '{shown}'")
            press(second)
        locked(first, pressed_at[id(first)], "the first")
        locked(second, pressed_at[id(second)], "the second")
    raise AssertionError("the night did not reach its results")


@pytest.mark.parametrize("together", [True, False], ids=["together", "one-by-one"])
def test_every_tap_at_the_first_moment_of_a_pick_locks(
    browser: Any, daphne_site: dict[str, str], artifacts: Path, together: bool
) -> None:
    names = ("tia", "uma") if together else ("vic", "wes")
    pages = seated_with_a_bot(browser, daphne_site["url"], names, daphne_site["db"])
    failed = [errors_seen(page) for page in pages]
    picks = night_of_first_taps(pages, together)
    assert picks >= 20
    host_case = pages[0].locator("#region-mine").inner_text()
    assert "Peel" in host_case or pages[0].locator(".peel-buttons").count() == 0
    assert failed == [[], []]
    pages[1].screenshot(path=str(artifacts / f"mb-first-taps-{names[1]}.png"), full_page=True)
    for page in pages:
        page.context.close()


# What moves the board under a finger between its press and its lift: a push that redraws the
# batch (new elements in the old ones' place), or one that grows a line above it.
UNDER_THE_FINGER = {
    "redrawn": "() => { const b = document.querySelector('#batch-form ul.batch');"
    " b.innerHTML = b.innerHTML; }",
    "shifted": "() => { const line = document.createElement('p'); line.style.height = '90px';"
    " document.querySelector('#batch-form').prepend(line); }",
}


@pytest.mark.parametrize("what", sorted(UNDER_THE_FINGER))
def test_a_tap_the_board_moves_under_is_taken(
    browser: Any, daphne_site: dict[str, str], what: str
) -> None:
    names = ("xena", "yuri") if what == "redrawn" else ("zack", "abby")
    page, rival = two_at_a_table(browser, daphne_site["url"], names, "midnight-bakery")
    page.locator("#batch-form button.card").first.wait_for()
    at = moment(page)
    aim = page.evaluate(AIM, [False, "pastry"])
    assert aim is not None and not aim["peel"]  # nobody holds a Peel at the first pick
    page.mouse.move(aim["x"], aim["y"])
    page.mouse.down()
    page.evaluate(UNDER_THE_FINGER[what])
    page.mouse.up()
    locked(page, at, names[0])
    for p in (page, rival):
        p.context.close()
