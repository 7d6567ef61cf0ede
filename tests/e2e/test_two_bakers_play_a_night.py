"""Two people sign up in two browsers and play a whole night of Midnight Bakery, a third watches."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from games.engines import midnight_bakery as engine
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.pages import sign_up, version

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - playwright is a dev dependency
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

pytestmark = pytest.mark.e2e


def seed_with_an_early_peel() -> int:
    """A seed whose first batch for Flour or Sugar holds a Peel, so a Peel is sure to be used."""
    for seed in range(1, 10_000):
        state = engine.new_game(2, seed=seed)
        for seat in (0, 1):
            if any(card["face"] == "peel" for card in engine.view(state, seat)["batch"]):
                return seed
    raise AssertionError("no seed deals an early Peel")


NO_SOCKETS = """
window.WebSocket = class {
  constructor() {
    this.readyState = 3;
    setTimeout(() => this.onclose && this.onclose({code: 1006}), 10);
  }
  send() {} close() {} addEventListener() {}
};
"""


def wait_for_new_version(page: Any, old: str) -> None:
    page.wait_for_function(
        "old => { const v = document.getElementById('board-version');"
        " return v && v.value !== old; }",
        arg=old,
    )


def take_a_turn(page: Any, peeled: dict[str, bool], name: str) -> bool:
    """Do whatever this baker's screen asks for now; False if there was nothing to do."""
    try:
        return screen_asks(page, peeled, name)
    except PlaywrightTimeout:
        return True  # the board was swapped under the click: look again


def screen_asks(page: Any, peeled: dict[str, bool], name: str) -> bool:
    """One click sequence for what the screen shows."""
    back = page.get_by_role("button", name="Back to the ovens")
    if back.count():
        back.click()
        back.wait_for(state="detached")
        return True
    form = page.locator("#batch-form")
    if not form.count():
        return False
    old = version(page)
    cards = form.locator("button.card")
    if form.get_attribute("data-peel") is not None:
        if not peeled[name] and cards.count() >= 2:
            cards.nth(1).click()
            cards.nth(0).click()
            assert cards.nth(1).locator(".order").inner_text() == "1"
            form.screenshot(path=str(ARTIFACTS / "mb-peel-choice.png"))
            page.get_by_role("button", name="Use the peel").click()
            peeled[name] = True
        else:
            cards.nth(0).click()
            page.get_by_role("button", name="Keep one").click()
    else:
        peel = form.locator("button.card", has_text="Baker's Peel")
        card = peel.first if peel.count() else cards.first
        if name == "alice":
            card.press("Enter")  # Alice plays by keyboard, Bob by clicking
        else:
            card.click()
    wait_for_new_version(page, old)
    return True


def other_name(name: str) -> str:
    return "alice" if name == "bob" else "bob"


def in_step(*pages: Any) -> None:
    """Wait until every page shows the same table version (pushes have landed)."""
    for _ in range(100):
        versions = {version(page) for page in pages if page.locator("#board-version").count()}
        if len(versions) <= 1:
            return
        pages[0].wait_for_timeout(50)


def bake_two_with_a_rival_locked(page: Any) -> bool:
    """Whether this page shows bake 2, no results open, and a rival's ringed face-down card."""
    return (
        "2 of 3" in page.locator("#region-status").inner_text()
        and not page.get_by_role("button", name="Back to the ovens").count()
        and page.locator("#region-seats .back.locked").count() > 0
    )


def test_two_people_play_a_whole_night_while_a_third_watches(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base = daphne_site["url"]
    alice_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    watcher_ctx = browser.new_context()
    alice, bob, watcher = alice_ctx.new_page(), bob_ctx.new_page(), watcher_ctx.new_page()
    for page in (alice, bob, watcher):
        page.set_default_timeout(10_000)
    # While their sockets are up, the bakers' moves go on them, none is posted.
    posted: list[str] = []
    on_socket: list[str] = []
    for page in (alice, bob):
        page.on("request", lambda r: posted.append(r.url) if r.url.endswith("/play/") else None)
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framesent", lambda p: on_socket.append(str(p)) if '"play"' in str(p) else None
            ),
        )
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")

    alice.goto(base + "/games/new/")
    alice.fill("#id_capacity", "2")
    alice.get_by_role("button", name="Open the table").click()
    alice.wait_for_url(re.compile(r".*/games/\d+/$"))
    table_url = alice.url
    game_id = int(table_url.rstrip("/").rsplit("/", 1)[1])

    bob.goto(table_url)
    bob.get_by_role("button", name="Take a seat").click()
    alice.get_by_text("bob").first.wait_for()
    alice.screenshot(path=str(artifacts / "mb-waiting-room.png"), full_page=True)
    watcher.goto(table_url)
    poller_ctx = browser.new_context()
    poller_ctx.add_init_script(NO_SOCKETS)  # this watcher's socket never opens: it polls
    poller = poller_ctx.new_page()
    poller.goto(table_url)

    with sqlite3.connect(daphne_site["db"]) as db:
        db.execute(
            "UPDATE games_game SET seed = ? WHERE id = ?", (seed_with_an_early_peel(), game_id)
        )

    alice.get_by_role("button", name="Start the night").click()
    for page in (alice, bob, watcher):
        page.wait_for_function("() => window.bakehouseLive === true")
    for page in (alice, bob, watcher):
        page.get_by_text("Bake").first.wait_for()
    bob.locator("#batch-form").wait_for()
    alice.locator("#batch-form").wait_for()

    peeled = {"alice": False, "bob": False}
    shot_mid_night = False
    for _ in range(400):
        if (
            alice.get_by_text("The night's results").count()
            and bob.get_by_text("The night's results").count()
        ):
            break
        acted = False
        for name, page, other in (("bob", bob, alice), ("alice", alice, bob)):
            in_step(alice, bob)
            acted = take_a_turn(page, peeled, name) or acted
            in_step(alice, bob)
            if not shot_mid_night and bake_two_with_a_rival_locked(other):
                other.screenshot(
                    path=str(artifacts / f"mb-mid-night-{other_name(name)}.png"), full_page=True
                )
                page.screenshot(path=str(artifacts / f"mb-mid-night-{name}.png"), full_page=True)
                shot_mid_night = True
        if not acted:
            alice.wait_for_timeout(100)
    else:
        raise AssertionError("the night did not reach its results")

    assert any(peeled.values())
    assert shot_mid_night
    assert posted == [] and len(on_socket) >= 12  # at least each baker's pick of every bake
    for page in (alice, bob):
        results = page.locator("#region-results")
        assert "winner" in results.inner_text()
        assert results.locator("table.bake").count() == 3
    watcher.get_by_text("The night's results").wait_for()
    poller.get_by_text("The night's results").wait_for()
    assert poller.evaluate("window.bakehouseLive") is False
    assert "You are watching" in watcher.content()
    alice.screenshot(path=str(artifacts / "mb-night-results.png"), full_page=True)
    watcher.screenshot(path=str(artifacts / "mb-spectator.png"), full_page=True)
    for ctx in (alice_ctx, bob_ctx, watcher_ctx, poller_ctx):
        ctx.close()
