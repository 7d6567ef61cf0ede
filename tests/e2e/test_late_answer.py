"""A move's HTTP answer that lands after a newer pushed board does not put the older board back.

Bots move right after the commit, so their pushed board often races the answer of the person's
move; here a rival's move stands in for the bot, and the answer is held until it has landed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.pages import sign_up, version

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]


def wait_for_version(page: Any, wanted: int) -> None:
    page.wait_for_function(
        "want => Number(document.getElementById('board-version').value) === want", arg=wanted
    )


def test_a_late_answer_does_not_undo_a_newer_pushed_board(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    hana_ctx, ivo_ctx = browser.new_context(), browser.new_context()
    hana, ivo = hana_ctx.new_page(), ivo_ctx.new_page()
    sign_up(hana, base, "hana")
    sign_up(ivo, base, "ivo")
    hana.goto(base + "/games/new/")
    hana.fill("#id_capacity", "2")
    hana.get_by_role("button", name="Open the table").click()
    hana.wait_for_url(re.compile(r".*/games/\d+/$"))
    ivo.goto(hana.url)
    ivo.get_by_role("button", name="Take a seat").click()
    hana.get_by_text("ivo").first.wait_for()
    hana.get_by_role("button", name="Start the night").click()
    for page in (hana, ivo):
        page.wait_for_function("window.bakehouseLive === true")
        page.locator("#batch-form button.card").first.wait_for()
    start = int(version(hana))
    wait_for_version(ivo, start)

    held: list[tuple[Any, Any]] = []
    hana.route(re.compile(r".*/play/$"), lambda route: held.append((route, route.fetch())))
    hana.locator("#batch-form button.card").first.click()
    wait_for_version(ivo, start + 1)
    ivo.locator("#batch-form button.card").first.click()
    wait_for_version(hana, start + 2)
    assert len(held) == 1

    # The form that asked is gone (the push replaced it): the answer's swap targets the board.
    hana.evaluate(
        "window.answered = false; document.addEventListener("
        "'htmx:beforeSwap', () => { window.answered = true; }, { once: true })"
    )
    route, answer = held[0]
    assert f'value="{start + 1}"' in answer.text()
    route.fulfill(response=answer)
    hana.wait_for_function("window.answered === true")
    assert version(hana) == str(start + 2)
    hana_ctx.close()
    ivo_ctx.close()
