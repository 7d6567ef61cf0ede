"""The page's live connection: it comes back after any close that was not final, and a tap that
cannot be sent is told in words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.live.protocol import SERVICE_RESTART
from tests.e2e.pages import (
    PATIENCE,
    open_table,
    person,
    two_at_a_table,
    version,
    wait_for_my_move,
)
from tests.support.sockets import answers_a_move

pytestmark = pytest.mark.e2e

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


# Drops the first regions-only push after window.__armed is set, as a channel layer may drop a
# message (it delivers at most once): live.js never sees it.
DROP_ONE_PUSH = """
window.__armed = false;
window.__dropped = 0;
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      if (window.__armed && event.data.includes('id="board-diff"')) {
        window.__armed = false;
        window.__dropped += 1;
        event.stopImmediatePropagation();
      }
    });
  }
};
"""


def take_three(page: Any, after: int = -1) -> int:
    """A take as the market offers it (data-takes): three different ingredients, or, when the
    bots have left fewer than three kinds, whatever take it offers. It waits for a board newer
    than version `after` on which it is this person's move (the board the last take was made on
    says so too until the take's answer lands); the version it took on."""
    taken_on = wait_for_my_move(page, after)
    takes = json.loads(page.locator("#market-form").get_attribute("data-takes") or "[]")
    names = next((t for t in takes if len(set(t)) == 3), takes[0])
    for name in names:
        page.locator(f'#market-form [data-ing="{name}"]').click()
    page.locator("[data-take]").click()
    return taken_on


def test_a_push_lost_on_the_way_is_healed_when_the_next_one_comes(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    """One tab loses a push; the next push leads from a board it never saw, so it fetches the
    whole board at once (not at the 20 s poll). Another tab of the same person plays."""
    base = daphne_site["url"]
    player = person(browser, base, "luz", DROP_ONE_PUSH, viewport={"width": 1280, "height": 900})
    context = player.context
    player.get_by_role("button", name="Rated Cakehalla against bots").click()
    watcher = context.new_page()
    watcher.set_default_timeout(PATIENCE)
    watcher.goto(player.url)
    for page in (player, watcher):
        page.wait_for_function("() => window.bakehouseLive === true")
    watcher.route("**/board/?version=*", lambda route: route.abort())  # no slow poll to heal it
    whole_boards: list[str] = []
    watcher.on(
        "request", lambda r: whole_boards.append(r.url) if r.url.endswith("/board/") else None
    )
    watcher.evaluate("window.__armed = true")
    first = take_three(player)
    watcher.wait_for_function("() => window.__dropped === 1")
    take_three(player, after=first)  # the bots have played: the person's turn again
    reached = int(version(player))
    watcher.wait_for_function(
        f"() => Number(document.getElementById('board-version').value) >= {reached}"
    )
    assert whole_boards, "healed by fetching the whole board"
    context.close()


# Opens sockets to this table beside the page's own, in its session, and counts those that open.
MORE_SOCKETS = """n => {
  window.__more = [];
  window.__moreOpen = 0;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const path = document.getElementById("live").dataset.socket;
  for (let i = 0; i < n; i++) {
    const ws = new WebSocket(scheme + location.host + path);
    ws.onmessage = () => { if (!ws.counted) { ws.counted = true; window.__moreOpen += 1; } };
    window.__more.push(ws);
  }
}"""
TABS_AT_TABLE = "This table is open in too many of your tabs: close one, then reload this one."


def test_a_tab_past_the_sessions_socket_cap_says_why_and_stays_closed(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    first = person(
        browser, base, "max_tabs", RECORD_SOCKETS, viewport={"width": 390, "height": 844}
    )
    context = first.context
    table = open_table(first, base, "midnight-bakery", 3)
    first.wait_for_function("() => window.bakehouseLive === true")
    first.evaluate(MORE_SOCKETS, 5)  # six in all: as many as one session may hold at a table
    first.wait_for_function("() => window.__moreOpen === 5")
    extra = context.new_page()
    extra.set_default_timeout(PATIENCE)
    extra.goto(table)
    extra.locator("#live-status", has_text=TABS_AT_TABLE).wait_for()
    assert extra.evaluate("window.bakehouseLive") is False
    assert extra.evaluate("window.__sockets.length") == 1  # no reconnecting in a loop
    extra.screenshot(path=str(artifacts / "socket-cap-phone.png"), full_page=True)
    assert extra.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


class RestartCrossesMove:
    """Routes a page's table sockets as a restart would meet its move: the first move the page
    sends on its first socket is either taken by the table (`reaches`) or lost on the way (a
    browser drops a frame sent as the close frame arrives), and the socket closes with
    SERVICE_RESTART before any answer reaches the page. Later sockets pass through, noting the
    moves sent on them and their answers."""

    def __init__(self, reaches: bool) -> None:
        self.reaches = reaches
        self.sockets = 0
        self.cut = False
        self.resent = 0
        self.answers: list[str] = []

    def route(self, page_side: Any) -> None:
        self.sockets += 1
        server = page_side.connect_to_server()
        first = self.sockets == 1

        def from_page(message: str | bytes) -> None:
            move = isinstance(message, str) and json.loads(message).get("type") == "play"
            if first and move:
                if self.reaches:
                    server.send(message)
                self.cut = True
                page_side.close(code=SERVICE_RESTART)
                return
            if move:
                self.resent += 1
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if first and self.cut:
                return  # the answer went out on a socket already closed
            if self.resent and isinstance(message, str) and answers_a_move(message):
                self.answers.append(message)
            page_side.send(message)

        page_side.on_message(from_page)
        server.on_message(from_server)


def cross_a_restart(browser: Any, base: str, names: tuple[str, str], reaches: bool) -> Any:
    """Two at a night; the first's page (reloaded behind RestartCrossesMove) taps a card."""
    me, rival = a_night_for_two(browser, base, names)
    crossing = RestartCrossesMove(reaches)
    me.route_web_socket("**/ws/games/**", crossing.route)
    me.reload()
    me.wait_for_function("() => window.bakehouseLive === true")
    before = int(version(me))
    me.locator("#batch-form button.card").first.click()
    me.get_by_text("Locked. Waiting for the others").wait_for()
    for _ in range(PATIENCE // 50):  # the move sent again, and its answer come
        if crossing.answers:
            break
        me.wait_for_timeout(50)
    assert crossing.sockets == 2 and crossing.resent == 1, vars(crossing)
    assert crossing.answers, "the move sent again was answered"
    assert int(version(me)) == before + 1  # made once
    assert me.locator("#board-message").inner_text() == ""
    assert me.locator("#board-message.error").count() == 0
    rival.context.close()
    return me


def test_a_move_a_restart_left_unanswered_is_sent_again_on_the_new_socket(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    """Lost on the way: the move is made on the new socket."""
    me = cross_a_restart(browser, daphne_site["url"], ("lost_tap_a", "lost_tap_b"), reaches=False)
    me.context.close()


def test_a_move_the_table_took_as_a_restart_closed_is_not_made_twice_nor_refused_in_words(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    """Taken by the stopping process: sent again, it is refused (the pick is locked); the page
    says nothing of it, as its board shows the pick."""
    me = cross_a_restart(browser, daphne_site["url"], ("took_tap_a", "took_tap_b"), reaches=True)
    me.context.close()
