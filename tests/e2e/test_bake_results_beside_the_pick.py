"""A bake's results never stand between a person and their next pick (issue 46, item 7).

With a clock, the next pick's time runs as soon as a bake is scored; the results used to take
the batch's place ("Close the bake's results (Back to the ovens) to pick again") while the bank
drained. Now the results show and the batch can be pressed at once: the pick is made and puts
the results away.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import pick_unless, two_at_a_table, version

pytestmark = pytest.mark.e2e

RESULTS = "#region-results .results-card"


def test_the_next_pick_is_offered_beside_the_bakes_results(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    pages = two_at_a_table(browser, daphne_site["url"], ("beside_a", "beside_b"), "midnight-bakery")
    alice = pages[0]
    for _ in range(400):  # a bake of two bakers is a dozen picks or so; a look every 0.1 s idle
        if alice.locator(RESULTS).count():
            break
        acted = False
        for page in pages:
            acted = pick_unless(page, RESULTS) or acted
        if not acted:  # the next boards are on their way (a loaded machine draws them late)
            alice.wait_for_timeout(100)
    assert alice.locator(RESULTS).count(), "no bake was scored"
    alice.get_by_role("button", name="Back to the ovens").wait_for()
    card = alice.locator("#batch-form button.card").first
    card.wait_for()  # the batch is offered while the results show
    before = version(alice)
    holds_a_peel = alice.locator("#batch-form[data-peel]").count() > 0
    card.click()
    if holds_a_peel:
        alice.get_by_role("button", name="Keep one").click()
    alice.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
    )
    alice.locator(RESULTS).wait_for(state="detached")  # the pick put the results away
    assert "Locked. Waiting for the others." in alice.locator("#region-mine").inner_text()
