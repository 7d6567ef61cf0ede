"""The page's live connection: it comes back after any close that was not final, and a tap that
cannot be sent is told in words."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import two_at_a_table

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

# Keeps every socket the page opens, so the test can close one as a server or a proxy would.
RECORD_SOCKETS = """
window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
"""


def a_night_for_two(browser: Any, base: str, names: tuple[str, str]) -> list[Any]:
    """Two people at a started two-seat night; both pages record their sockets."""
    pages = two_at_a_table(browser, base, names, "midnight-bakery", init_script=RECORD_SOCKETS)
    for page in pages:
        page.locator("#batch-form button.card").first.wait_for()
    return pages


def test_the_page_reconnects_after_a_normal_close_and_catches_up(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    me, rival = a_night_for_two(browser, daphne_site["url"], ("gus", "hana"))
    me.evaluate("window.__sockets[0].close(1000)")
    me.wait_for_function("() => window.bakehouseLive === false")
    me.wait_for_function("() => window.__sockets.length === 2 && window.bakehouseLive === true")
    shown = int(me.locator("#board-version").input_value())
    rival.locator("#batch-form button.card").first.click()
    me.wait_for_function(f"() => Number(document.getElementById('board-version').value) > {shown}")
    assert me.locator("#live-status").inner_text() == "Live."
    for page in (me, rival):
        page.context.close()


def test_a_tap_that_cannot_be_sent_is_told_and_nothing_is_lost(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    me, rival = a_night_for_two(browser, daphne_site["url"], ("ivy", "jon"))
    me.context.set_offline(True)
    me.locator("#batch-form button.card").first.click()
    message = me.locator("#board-message")
    message.filter(has_text="could not be reached").wait_for()
    assert "error" in (message.get_attribute("class") or "")
    me.context.set_offline(False)
    me.wait_for_function("() => window.bakehouseLive === true")
    me.locator("#batch-form button.card").first.click()  # the same pick, now sent
    me.get_by_text("Locked. Waiting for the others").wait_for()
    for page in (me, rival):
        page.context.close()
