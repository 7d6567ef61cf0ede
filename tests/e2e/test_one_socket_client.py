"""The one socket client (static/js/socket.js) on each page that has a socket: a table, the
pairing panel of a search, a tournament. The server closes the page's socket as a lost network
would (1000: the page says it is away and comes back after its back-off), as a restart does (3012:
back at once, without a word), and for good (4409, past the caps: said in words, and no socket
opens again, whatever the page does next)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.live.protocol import SERVICE_RESTART, TABS_IN_ALL
from tests.e2e.pages import PATIENCE, open_table, open_tournament, sign_up

pytestmark = pytest.mark.e2e

# Keeps every socket the page opens, and every word the page's line for its socket showed.
WATCH = """
window.__sockets = [];
window.__said = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver(() => {
    for (const line of document.querySelectorAll("#live-status, .pairing-facts")) {
      if (window.__said[window.__said.length - 1] !== line.textContent) {
        window.__said.push(line.textContent);
      }
    }
  }).observe(document.body, { childList: true, characterData: true, subtree: true });
});
"""
PAST_THE_CAPS = (
    "You have too many Bakehouse pages open in your tabs: close some, then reload this one."
)


class Sockets:
    """The page's sockets, passed through to the server; the test closes them as the server."""

    def __init__(self) -> None:
        self.routes: list[Any] = []

    def __call__(self, route: Any) -> None:
        self.routes.append(route)
        route.connect_to_server()


def a_table(page: Any, base: str) -> str:
    open_table(page, base, "midnight-bakery", 3)
    return "#live-status"


def a_search(page: Any, base: str) -> str:
    """Look for a Midnight Bakery of eight exactly: nobody else on the test site looks for that,
    so no other test's person still looking seats this one before its panel shows."""
    form = page.locator("form.find-form", has_text="Midnight Bakery")
    form.locator("select[name=fewest]").select_option("8")
    form.locator("select[name=most]").select_option("8")
    form.get_by_role("button", name="Find a game").click()
    page.locator("#pairing-waiting").wait_for()
    return "#pairing-waiting .pairing-facts"


def a_tournament(page: Any, base: str) -> str:
    open_tournament(page, base)
    return "#live-status"


# Each page with a socket: how a person comes to it (the selector of its words), its socket's
# path, and what it says while away (the pairing panel says nothing: its wait counts on).
PAGES: dict[str, tuple[Callable[[Any, str], str], str, str]] = {
    "table": (a_table, "**/ws/games/**", "Reconnecting"),
    "pairing": (a_search, "**/ws/pairing/**", ""),
    "tournament": (a_tournament, "**/ws/tournaments/**", "Reconnecting"),
}


def open_page(browser: Any, base: str, kind: str, name: str) -> tuple[Any, Sockets, str]:
    """A new person on a page of that kind, its socket open; the page, its sockets, the selector
    of the line where it says what happens to its socket."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, name)
    sockets = Sockets()
    arrive, path, _ = PAGES[kind]
    page.route_web_socket(path, sockets)
    line = arrive(page, base)
    wait_open(page, 1)
    return page, sockets, line


def wait_open(page: Any, count: int) -> None:
    """Wait until the page has opened `count` sockets and the last is open."""
    page.wait_for_function(
        "n => window.__sockets.length === n && window.__sockets[n - 1].readyState === 1",
        arg=count,
    )


def said_since(page: Any, mark: int) -> list[str]:
    return list(page.evaluate("m => window.__said.slice(m)", mark))


@pytest.mark.parametrize("kind", list(PAGES))
def test_each_page_comes_back_after_a_drop_and_at_once_after_a_restart(
    browser: Any, daphne_site: dict[str, str], kind: str
) -> None:
    page, sockets, _ = open_page(browser, daphne_site["url"], kind, f"back_{kind}")
    away = PAGES[kind][2]
    mark = int(page.evaluate("window.__said.length"))
    sockets.routes[0].close(code=1000)
    wait_open(page, 2)
    said = said_since(page, mark)
    assert page.evaluate("document.body.dataset.socket") == "live"
    if away:
        assert any(away in words for words in said), said
        assert page.locator("#live-status").inner_text() in ("Live.", "")
    mark = int(page.evaluate("window.__said.length"))
    sockets.routes[1].close(code=SERVICE_RESTART)
    wait_open(page, 3)
    said = said_since(page, mark)
    assert not any("Reconnecting" in words for words in said), said
    assert len(sockets.routes) == 3
    page.context.close()


@pytest.mark.parametrize("kind", list(PAGES))
def test_each_page_closed_for_good_says_why_and_opens_no_socket_again(
    browser: Any, daphne_site: dict[str, str], kind: str
) -> None:
    page, sockets, line = open_page(browser, daphne_site["url"], kind, f"capped_{kind}")
    sockets.routes[0].close(code=TABS_IN_ALL)
    page.locator(line, has_text=PAST_THE_CAPS).wait_for()
    # What would open a socket again on a page that still wants one: the browser back online,
    # the page shown again, a piece of it redrawn by htmx (the pairing panel's sync).
    page.evaluate(
        """() => {
            window.dispatchEvent(new Event("online"));
            document.dispatchEvent(new Event("visibilitychange"));
            document.dispatchEvent(new CustomEvent("htmx:afterSettle"));
        }"""
    )
    assert page.evaluate("window.__sockets.length") == 1
    assert page.locator(line).inner_text() == PAST_THE_CAPS
    page.context.close()
