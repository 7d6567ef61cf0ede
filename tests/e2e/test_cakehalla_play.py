"""A person plays a whole Cakehalla game against a greedy bot by clicking; another watches."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from games.engines import cakehalla as engine
from tests.e2e.cakehalla_brain import FEATURES, decide, feature_of, find_seed
from tests.e2e.pages import sign_up

pytestmark = pytest.mark.e2e


def stored(db: str, game_id: int) -> tuple[Any, int, str]:
    """The table's state, version and status as the server stored them."""
    with sqlite3.connect(db) as conn:
        snapshot, version, status = conn.execute(
            "SELECT snapshot, version, status FROM games_game WHERE id = ?", (game_id,)
        ).fetchone()
    return engine.load(json.loads(snapshot)), int(version), str(status)


def after_the_bot(db: str, game_id: int) -> tuple[Any, int, str]:
    """The stored table once the bot answered, after the request: the person's turn, or over."""
    for _ in range(1000):
        state, version, status = stored(db, game_id)
        if status == "over" or state.turn == 0:
            return state, version, status
        time.sleep(0.01)
    raise AssertionError("the bot never answered")


def wait_for_version(page: Any, wanted: int) -> None:
    """Wait until the page shows that version from both its HTTP answer and its live socket."""
    page.wait_for_function(
        "want => { const v = document.getElementById('board-version');"
        " return v && Number(v.value) >= want"
        " && Number(document.body.dataset.liveVersion || -1) >= want"
        " && !document.querySelector('.htmx-request'); }",
        arg=wanted,
    )


def offer(page: Any, region: str, card: str) -> Any:
    """The tappable card in a region, opened to show its Buy and Reserve buttons."""
    details = page.locator(
        f'#region-{region} details.offer:has(button[value*=\'"card":"{card}"\'])'
    )
    details.locator("summary").click()
    return details


def press_move(page: Any, action: Mapping[str, Any]) -> None:
    """Make a take or a blind reservation with the keyboard alone."""
    if action["type"] == "take":
        for name in action["ingredients"]:
            page.locator(f'#market-form [data-ing="{name}"]').press("Enter")
        page.locator("[data-take]").press("Enter")
    else:
        # A pile asks first: Enter opens its offer, Enter on Reserve confirms.
        page.locator(pile(action["tier"]) + " > summary").press("Enter")
        page.locator(pile(action["tier"]) + " button").press("Enter")


def pile(tier: int) -> str:
    return f"#region-counter details.pile-offer:has(button[value*='\"tier\":{tier}}}'])"


def click_move(page: Any, action: Mapping[str, Any], reserved: set[str]) -> None:
    """Make the move on the screen, tap by tap."""
    kind = action["type"]
    if kind == "take":
        for name in action["ingredients"]:
            page.click(f'#market-form [data-ing="{name}"]')
        page.locator("[data-take]").click()
    elif kind == "reserve" and "tier" in action:
        page.click(pile(action["tier"]) + " > summary")
        page.locator(pile(action["tier"])).get_by_role("button", name="Reserve face down").click()
    elif kind == "reserve":
        offer(page, "counter", action["card"]).get_by_role("button", name="Reserve").click()
    elif kind == "buy":
        region = "mine" if action["card"] in reserved else "counter"
        offer(page, region, action["card"]).get_by_role("button", name="Buy").click()
    elif kind == "return":
        form = page.locator("#return-form")
        for name, n in action["ingredients"].items():
            for _ in range(n):
                form.locator(f'[data-back="{name}"] [data-step="1"]').click()
        form.locator("[data-return]").click()
    elif kind == "customer":
        page.click(f'#region-dialog button[value*=\'"customer":"{action["customer"]}"\']')
    else:
        page.get_by_role("button", name="Pass").click()


def test_a_person_plays_a_whole_game_against_a_bot_while_another_watches(
    browser: Any, daphne_site: dict[str, str], artifacts: Path
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    seed = find_seed("greedy")
    player_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    player, watcher = player_ctx.new_page(), watcher_ctx.new_page()
    sign_up(player, base, "dora")
    sign_up(watcher, base, "eli")

    player.goto(base + "/games/new/")
    player.select_option("#id_kind", "cakehalla")
    player.fill("#id_capacity", "2")
    player.click("main button[type=submit]")
    player.wait_for_url(re.compile(r".*/games/\d+/$"))
    table_url = player.url
    game_id = int(table_url.rstrip("/").rsplit("/", 1)[1])
    player.get_by_role("button", name="Add a steady bot").click()
    player.get_by_text("greedy bot", exact=False).first.wait_for()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games_game SET seed = ? WHERE id = ?", (seed, game_id))
    watcher.goto(table_url)
    player.get_by_role("button", name="Start the game").click()
    player.locator("#region-counter").wait_for()
    watcher.locator("#region-counter").wait_for()
    assert "You are watching" in watcher.content()
    saffron = player.locator('#market-form [data-ing="saffron"]')
    saffron.focus()
    assert player.locator("#why-ing-saffron").is_visible()
    assert "by reserving" in player.locator("#why-ing-saffron").inner_text()

    done: set[str] = set()
    secrets: set[str] = set()
    shots = {"board": False, "put back": False}
    for _ in range(200):
        state, current, status = after_the_bot(db, game_id)
        if status == "over":
            break
        wait_for_version(player, current)
        seat = state.turn
        view: Mapping[str, Any] = engine.view(state, seat)  # read as the JSON the page gets
        legal = engine.legal_actions(state, seat)
        action = decide(view, legal, done)
        reserved = {r["id"] for r in view["seats"][seat]["reserved"]}
        if view["pending"] == "return" and not shots["put back"]:
            player.screenshot(path=str(artifacts / "cakehalla-put-back.png"), full_page=True)
            shots["put back"] = True
        feature = feature_of(action, reserved)
        if action["type"] == "reserve" and "tier" in action:
            secrets.add(engine.dump(state)["piles"][action["tier"] - 1][0])
        if feature in ("take three", "reserve blind") and feature not in done:
            press_move(player, action)
        else:
            click_move(player, action, reserved)
        done.add(feature)
        wait_for_version(player, current + 1)
        if not shots["board"] and {"reserve face up", "reserve blind"} <= done:
            wait_for_version(watcher, current + 1)
            player.screenshot(path=str(artifacts / "cakehalla-board.png"), full_page=True)
            watcher.screenshot(path=str(artifacts / "cakehalla-board-phone.png"), full_page=True)
            shots["board"] = True
        for secret in secrets:
            assert secret not in watcher.content(), "a blind reservation reached the watcher"
    else:
        raise AssertionError("the game did not end")

    state, final_version, _ = stored(db, game_id)
    assert state.bakers[0].customers, "no customer visited the person"
    done.add("customer")
    assert set(FEATURES) <= done, set(FEATURES) - done
    for page in (player, watcher):
        wait_for_version(page, final_version)
        page.get_by_role("heading", name="Final standings").wait_for()
        results = page.locator("#region-results").inner_text()
        assert "winner" in results and ("wins" in results or "share the win" in results)
    player.locator("#region-info summary").click()
    log = player.locator("#region-info").inner_text()
    assert re.search(r"visited \w+ \(dora\): 3 points", log)
    assert "face down" in log and "put back" in log
    player.locator("#region-info summary").click()
    player.screenshot(path=str(artifacts / "cakehalla-final.png"), full_page=True)
    watcher.screenshot(path=str(artifacts / "cakehalla-final-phone.png"), full_page=True)
    player_ctx.close()
    watcher_ctx.close()
