"""A person who never played reads How to play, then finishes the guided first game by pressing
whatever the tutorial points at, on a phone and on a desktop; leaves half-way and comes back by
the lobby's link; and then finds it done on their profile and no longer offered on the lobby."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.pages import PATIENCE, errors_seen, sign_up, version

KIND = "midnight-bakery"
VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 900},
}
LEAVE_AFTER = 4


def shot(page: Any, name: str) -> None:
    """A screenshot for a person to look at (artifacts/ and /tmp)."""
    for folder in (ARTIFACTS, Path("/tmp")):
        folder.mkdir(exist_ok=True)
        page.screenshot(path=str(folder / f"tutorial-{name}.png"))


def no_sideways_scroll(page: Any) -> None:
    wide = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the page scrolls sideways by {wide} px"


def pointed(page: Any, before: str | None) -> str:
    """Wait until the step names a new control and the board shows it outlined, with the
    pointer's tag above it in sight; the step's target."""
    page.wait_for_function(
        """before => {
          const step = document.getElementById('tutorial-step');
          const target = document.querySelector('#live .tutorial-target');
          const tag = document.getElementById('tutorial-pointer');
          return step && step.dataset.target && step.dataset.target !== before
            && target && target.matches(step.dataset.target) && tag && !tag.hidden;
        }""",
        arg=before,
    )
    target = str(page.locator("#tutorial-step").get_attribute("data-target"))
    height = page.viewport_size["height"]
    box = page.locator("#live .tutorial-target").bounding_box()
    tag = page.locator("#tutorial-pointer").bounding_box()
    assert box is not None and tag is not None
    assert 0 <= box["y"] < height, "the pointed control is out of sight"
    assert tag["y"] + tag["height"] <= box["y"] + 1, "the tag is not above the control"
    return target


def redrawn_keeps_pointer(page: Any) -> bool:
    """Redraw the whole board as a socket push would (morphed in by live.js) and tell whether
    the control is still outlined right after."""
    return bool(
        page.evaluate(
            """async () => {
              const root = document.getElementById('live');
              const answer = await fetch(root.dataset.board, { headers: { 'HX-Request': 'true' } });
              const html = await answer.text();
              window.bakehouseApply(html);
              return !!document.querySelector('#live .tutorial-target');
            }"""
        )
    )


def press_pointed(page: Any) -> None:
    """Press the outlined control and wait until the table has moved on from it."""
    before = version(page)
    page.locator("#live .tutorial-target").click()
    page.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
    )


@pytest.mark.parametrize("screen", list(VIEWPORTS))
def test_a_newcomer_finishes_the_tutorial_by_following_the_pointer(
    browser: Any, daphne_site: dict[str, str], screen: str
) -> None:
    base = daphne_site["url"]
    phone = screen == "phone"
    context = browser.new_context(viewport=VIEWPORTS[screen], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    failed = errors_seen(page)
    sign_up(page, base, f"learner-{screen}")
    assert page.locator("#tutorial-offer").is_visible()
    no_sideways_scroll(page)
    shot(page, f"{screen}-lobby")

    page.goto(f"{base}/games/rules/{KIND}/")
    page.get_by_role("link", name="Learn by playing").click()
    no_sideways_scroll(page)
    shot(page, f"{screen}-learn")
    page.get_by_role("button", name="Start the guided game").click()
    page.wait_for_function("() => window.bakehouseLive === true")
    table = page.url
    assert "A short night" in page.locator("#tutorial-step").inner_text()

    target: str | None = None
    steps = 0
    while not page.locator("#tutorial-step.done").count():
        target = pointed(page, target)
        if steps == 0:
            assert redrawn_keeps_pointer(page), "a redraw of the board lost the pointer"
        if steps in (0, LEAVE_AFTER):
            no_sideways_scroll(page)
            shot(page, f"{screen}-step-{steps + 1}")
        if steps == LEAVE_AFTER:
            said = page.locator("#tutorial-step").inner_text()
            page.goto(base + "/")  # away, then back by the lobby's link
            page.get_by_role("button", name="Go on with your Midnight Bakery tutorial").click()
            page.wait_for_url(table)
            page.wait_for_function("() => window.bakehouseLive === true")
            target = pointed(page, None)
            assert page.locator("#tutorial-step").inner_text() == said
            assert "A short night" not in said
        press_pointed(page)
        steps += 1
        assert steps <= 15, "the tutorial runs on past ten picks"
        page.wait_for_function(
            """before => {
              const step = document.getElementById('tutorial-step');
              return step && step.dataset.target !== before;
            }""",
            arg=target,
        )

    pointed(page, None)  # the scoring, outlined
    assert page.locator("#region-results .results-card").is_visible()
    assert "Dawn: each case scored" in page.locator("#tutorial-step").inner_text()
    assert steps == 10
    no_sideways_scroll(page)
    shot(page, f"{screen}-scoring")

    page.goto(f"{base}/u/learner-{screen}/")
    assert "Midnight Bakery" in page.locator("#tutorials-done").inner_text()
    shot(page, f"{screen}-profile")
    page.goto(base + "/")
    assert page.locator("#tutorial-offer").count() == 0
    assert failed == []
    context.close()
