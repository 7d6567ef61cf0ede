"""Two people press at the same instant, answers arrive late, a rival moves under an open menu.

The boards must never go backwards, never freeze, never lose a tap, and never show an error.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import errors_seen, two_at_a_table, version

pytestmark = pytest.mark.e2e
WIDE = {"width": 1000, "height": 900}

# Pressed by each page's own clock at one agreed instant: the two clicks land within a few ms.
PRESS_AT = """
([selector, at]) => new Promise((done) => setTimeout(() => {
  const form = document.querySelector("#batch-form");
  const card = form && form.querySelector(selector);
  if (!card) { done("gone"); return; }
  card.click();
  const keep = form.querySelector('[data-submit="keep"]');
  if (keep) keep.click();
  done("pressed");
}, Math.max(0, at - Date.now())))
"""

HAS_BATCH = "!!document.querySelector('#batch-form button.card')"
CAN_PICK = f"() => {HAS_BATCH} && !document.querySelector('.htmx-request')"


def moment(page: Any) -> str:
    """The bake and pick the page shows ('' at the results)."""
    field = page.locator("#board-moment")
    return str(field.input_value()) if field.count() else ""


def both_ready(pages: list[Any]) -> str:
    """Wait until every page can pick, at one moment; 'results' if the night is over."""
    for page in pages:
        page.wait_for_function(
            f"() => ({CAN_PICK})() || !!document.querySelector('#region-results table.final')"
            " || /The night's results/.test(document.body.innerText)"
        )
    if all("The night's results" in page.locator("#board").inner_text() for page in pages):
        return "results"
    for page in pages:
        page.wait_for_function(CAN_PICK)
    return moment(pages[0])


def started_night(browser: Any, base: str, names: tuple[str, str]) -> list[Any]:
    """Two people at a two-seat Midnight Bakery table, the night started, both boards live."""
    pages = two_at_a_table(browser, base, names, "midnight-bakery", viewport=WIDE)
    for page in pages:
        page.locator("#board-moment").wait_for(state="attached")
    return pages


def test_two_people_pressing_at_the_same_instant_finish_the_night(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    pages = started_night(browser, daphne_site["url"], ("ada", "ben"))
    failed = [errors_seen(page) for page in pages]
    picks = 0
    for _ in range(60):
        back = [p.get_by_role("button", name="Back to the ovens") for p in pages]
        if all(b.count() for b in back):
            for b in back:
                b.click()
        if both_ready(pages) == "results":
            break
        before = {moment(p) for p in pages}
        at = int(time.time() * 1000) + 150
        outcomes = [p.evaluate(PRESS_AT, ["button.card", at]) for p in pages]
        assert outcomes == ["pressed", "pressed"]
        picks += 1
        for page in pages:  # the reveal reaches both boards: nobody is left on a frozen pick
            page.wait_for_function(
                "old => { const m = document.getElementById('board-moment');"
                " return !m || !old.includes(m.value); }",
                arg=sorted(before),
            )
            message = page.locator("#board-message")
            assert "error" not in (message.get_attribute("class") or ""), message.inner_text()
    else:
        raise AssertionError("the night did not reach its results")
    assert picks >= 10
    assert failed == [[], []]
    pages[0].screenshot(path=str(artifacts / "mb-simultaneous-results.png"), full_page=True)
    for page in pages:
        page.context.close()


@pytest.mark.parametrize(
    ("names", "board_in_answer"), [(("cleo", "dan"), True), (("cleon", "dana"), False)]
)
def test_an_answer_older_than_the_board_shown_is_dropped(
    browser: Any,
    daphne_site: dict[str, str],
    artifacts: Path,
    names: tuple[str, str],
    board_in_answer: bool,
) -> None:
    """A tap posted by a live page is answered 204 (its socket brings the board); without the
    live header (a page whose socket is down) the answer is the board. Either, arriving late,
    changes nothing and leaves the table open to taps."""
    slow, quick = started_night(browser, daphne_site["url"], names)
    held: list[tuple[Any, Any]] = []

    def hold_the_answer(route: Any) -> None:
        headers = dict(route.request.headers)
        if board_in_answer:
            headers.pop("x-bakehouse-live", None)
        held.append((route, route.fetch(headers=headers)))  # stored now; its answer waits

    slow.route("**/play/", hold_the_answer)
    # The browser says it is offline (its socket still up): the page posts its taps.
    slow.evaluate("Object.defineProperty(navigator, 'onLine', {get: () => false})")
    shown = int(version(slow))
    slow.locator("#batch-form button.card").first.click()
    for _ in range(400):
        if held:
            break
        slow.wait_for_timeout(25)
    assert held, "the slow page's pick never reached the site"
    quick.locator("#batch-form button.card").first.click()
    # The reveal reaches the slow page over its socket while its own answer is still on the way.
    slow.wait_for_function(
        f"() => Number(document.getElementById('board-version').value) > {shown + 1}"
    )
    revealed = version(slow)
    slow.wait_for_function(f"() => {HAS_BATCH}")
    route, answer = held[0]
    assert answer.status == (200 if board_in_answer else 204)
    route.fulfill(response=answer)
    slow.wait_for_function("() => !document.querySelector('.htmx-request')")
    assert version(slow) == revealed
    assert "awaiting-push" not in (slow.locator("#live").get_attribute("class") or "")
    assert slow.locator("#batch-form button.card").count() > 0, "the old answer froze the board"
    assert "Locked. Waiting" not in slow.locator("#region-mine").inner_text()
    shot = "mb-late-answer-dropped.png" if board_in_answer else "mb-late-204.png"
    slow.screenshot(path=str(artifacts / shot), full_page=True)
    for page in (slow, quick):
        page.context.close()


def test_an_open_cakehalla_card_menu_survives_a_rivals_move(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    pages = two_at_a_table(browser, daphne_site["url"], ("eve", "finn"), "cakehalla")
    for page in pages:
        page.locator("#region-counter").wait_for()
    mover = next(p for p in pages if p.locator("#market-form [data-take]").count())
    waiter = pages[1] if mover is pages[0] else pages[0]
    menu = waiter.locator("#region-counter details.offer:not(.pile-offer)").first
    menu.locator("summary").click()
    assert menu.get_attribute("open") is not None
    card = menu.get_attribute("data-offer")
    before = int(version(waiter))

    for name in ("sugar", "blueberry", "matcha"):  # the opening take: three different
        mover.locator(f'#market-form [data-ing="{name}"]').click()
    mover.locator("[data-take]").click()
    waiter.wait_for_function(
        f"() => Number(document.getElementById('board-version').value) > {before}"
    )
    reopened = waiter.locator(f'#region-counter details[data-offer="{card}"]')
    assert reopened.get_attribute("open") is not None, "the rival's move closed the menu"
    assert reopened.get_by_role("button", name="Reserve").is_visible()
    waiter.screenshot(path=str(artifacts / "ck-menu-kept-open.png"), full_page=True)
    for page in pages:
        page.context.close()


# A regions-only piece made on top of another board than the one shown (a lost or reordered
# message), carrying a status region that must never appear.
FOREIGN_PIECE = """
shown => window.bakehouseApply(
  `<template id="board-diff" data-base="${shown - 1}" data-version="${shown + 1}"></template>` +
  `<div id="board-live" hidden data-version="${shown + 1}"></div>` +
  `<section id="region-status">A piece from another board</section>`)
"""


def test_a_piece_made_for_another_board_is_never_half_applied(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    page, rival = started_night(browser, daphne_site["url"], ("kit", "lev"))
    shown = int(version(page))
    with page.expect_request_finished(lambda r: r.url.endswith("/board/")) as resync:
        assert page.evaluate(FOREIGN_PIECE, shown) is False
    assert resync.value.response().status == 200  # the whole board, fetched instead
    page.wait_for_function(f"() => Number(document.body.dataset.liveVersion) === {shown}")
    assert "another board" not in page.locator("#region-status").inner_text()
    assert int(version(page)) == shown
    for p in (page, rival):
        p.context.close()
