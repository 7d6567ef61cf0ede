"""A deploy mid-game, seen from the page: the process serving the table is replaced by a new one
on the same port (bakery_site/serve.py), the old one drains (games/live/drain.py).

The page's socket is closed with 3012; it comes back at once to the new process without a word
of outage, a tap made as it happens is taken once, and the board goes on with the next move. And
a site restored from a backup older than the board a page shows: the page shows the table as
restored, and play goes on from there.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bakery_site import processes
from bench.web.site import free_port, wait_ready
from games.live.protocol import SERVICE_RESTART
from tests.e2e.conftest import CHROMIUM, prepared_site
from tests.e2e.pages import two_at_a_table

pytestmark = pytest.mark.e2e

# Keeps every socket the page opens, how each closed, every word the live status line showed,
# and when each socket was closed and opened (ms, the page's clock).
WATCH_THE_SOCKETS = """
window.__sockets = [];
window.__closes = [];
window.__opened = [];
window.__statuses = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    window.__sockets.push(this);
    this.addEventListener("open", () => window.__opened.push(performance.now()));
    this.addEventListener("close", (e) => window.__closes.push([e.code, performance.now()]));
  }
};
document.addEventListener("DOMContentLoaded", () => {
  const line = document.getElementById("live-status");
  if (!line) return;
  new MutationObserver(() => window.__statuses.push(line.textContent)).observe(
    line, { childList: true, characterData: true, subtree: true });
});
"""


class Deployed:
    """The site on one port, served by one process at a time: `roll` replaces it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = prepared_site(folder)
        self.db = folder / "db.sqlite3"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.serving: list[subprocess.Popen[bytes]] = []
        self.start()

    def start(self) -> subprocess.Popen[bytes]:
        """A new process on the port (beside the one there): it serves on return."""
        n = len(self.serving)
        pidfile = self.folder / f"daphne-{n}.pid"
        process = processes.launch(self.port, pidfile, self.folder / "daphne.log", env=self.env)
        processes.wait_serving(process, pidfile)
        self.serving.append(process)
        return process

    def roll(self) -> subprocess.Popen[bytes]:
        """Start the new process, then SIGTERM the old one; the old one."""
        old = self.serving[-1]
        self.start()
        old.send_signal(signal.SIGTERM)
        return old

    def stop(self) -> None:
        for process in self.serving:
            if process.poll() is None:
                process.terminate()
            process.wait(30)


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[Deployed]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium")
    site = Deployed(tmp_path)
    try:
        wait_ready(site.url, site.serving[0])
        yield site
    finally:
        site.stop()


def shown(page: Any) -> int:
    return int(page.locator("#board-version").input_value())


def live_table(browser: Any, deployed: Deployed, names: tuple[str, str]) -> tuple[Any, Any]:
    """Two people's pages at a new Midnight Bakery table, each live with cards to pick (the pages
    note their sockets' opens and closes: WATCH_THE_SOCKETS)."""
    me, rival = two_at_a_table(
        browser, deployed.url, names, "midnight-bakery", init_script=WATCH_THE_SOCKETS
    )
    for page in (me, rival):
        page.locator("#batch-form button.card").first.wait_for()
        page.wait_for_function("() => window.bakehouseLive === true")
    return me, rival


def test_a_deploy_mid_game_is_not_noticed(
    browser: Any, deployed: Deployed, artifacts: Path
) -> None:
    me, rival = live_table(browser, deployed, ("kit", "lou"))
    before = shown(me)
    old = deployed.roll()
    me.locator("#batch-form button.card").first.click()  # a tap as the old process stops
    old.wait(60)
    assert old.returncode == 0
    for page in (me, rival):
        page.wait_for_function("() => window.__sockets.length === 2 && window.bakehouseLive")
    # The tap was taken once: the pick is locked in, with no words of a failure.
    me.get_by_text("Locked. Waiting for the others").wait_for()
    assert me.locator("#board-message.error").count() == 0
    # The rival's pick, made on the new process, reaches both boards.
    rival.locator("#batch-form button.card").first.click()
    for page in (me, rival):
        page.wait_for_function(
            f"() => Number(document.getElementById('board-version').value) >= {before + 2}"
        )
    for page in (me, rival):
        closes = page.evaluate("window.__closes")
        assert [code for code, _ in closes] == [SERVICE_RESTART], closes
        statuses = page.evaluate("window.__statuses")
        assert not any("Reconnecting" in words for words in statuses), statuses
        assert page.locator("#live-status").inner_text() == "Live."
        back = page.evaluate("window.__opened[1]") - closes[0][1]
        print(f"back on the new process {back:.0f} ms after the close")  # measured in bench-web
    me.screenshot(path=str(artifacts / "deploy-reconnect.png"))
    for page in (me, rival):
        page.context.close()


# The page's thread busy (a slow phone drawing) while the restart's close frame arrives, then a
# tap: the browser has the close, the page's socket still says OPEN, and what it sends is dropped.
BUSY_THEN_TAP = """() => setTimeout(() => {
  const began = performance.now();
  while (performance.now() - began < 3000) {}
  window.__openAtTap = window.__sockets[0].readyState === WebSocket.OPEN;
  document.querySelector("#batch-form button.card").click();
}, 0)"""


def test_a_tap_a_busy_page_sends_as_the_close_arrives_is_taken_once(
    browser: Any, deployed: Deployed
) -> None:
    me, rival = live_table(browser, deployed, ("busy_tap_a", "busy_tap_b"))
    before = shown(me)
    old = deployed.serving[-1]
    deployed.start()
    me.evaluate(BUSY_THEN_TAP)
    old.send_signal(signal.SIGTERM)
    me.get_by_text("Locked. Waiting for the others").wait_for()
    old.wait(60)
    assert me.evaluate("window.__openAtTap") is True
    assert shown(me) == before + 1
    assert me.locator("#board-message.error").count() == 0
    for page in (me, rival):
        page.context.close()


def copied(source: Path, target: Path) -> None:
    """A copy of a SQLite database made while the site runs (SQLite's backup)."""
    with sqlite3.connect(source) as origin, sqlite3.connect(target) as copy:
        origin.backup(copy)


def test_a_page_open_across_a_restore_shows_the_table_as_restored(
    browser: Any, deployed: Deployed, tmp_path: Path
) -> None:
    me, rival = live_table(browser, deployed, ("max", "nia"))
    backed_up = shown(me)
    backup = tmp_path / "backup.sqlite3"
    copied(deployed.db, backup)
    rival.locator("#batch-form button.card").first.click()
    me.wait_for_function(
        f"() => Number(document.getElementById('board-version').value) > {backed_up}"
    )
    copied(backup, deployed.db)  # the site restored from the backup, then started again
    deployed.roll().wait(60)
    for page in (me, rival):
        page.wait_for_function(
            f"() => Number(document.getElementById('board-version').value) === {backed_up}"
        )
    # The rival's pick is undone by the restore: they pick again, and both boards go on.
    rival.locator("#batch-form button.card").first.click()
    for page in (me, rival):
        page.wait_for_function(
            f"() => Number(document.getElementById('board-version').value) > {backed_up}"
        )
    for page in (me, rival):
        page.context.close()
