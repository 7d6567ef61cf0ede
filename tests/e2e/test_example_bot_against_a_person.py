"""The example bot (examples/bakehouse_bot.py, its own process, the API alone) plays a whole game of
each kind against a person who plays in Chromium on the table's page (issue 49).

The person signs up and opens a two-seat table; the bot's fresh account upgrades itself to a bot
account, finds the table through `GET /api/tables/open` and sits down (`--join`); the person sees
it marked as a bot beside its name and starts the game. From there the person taps their moves
on the page (Midnight Bakery: the first pastry of each batch; Cakehalla: the moves the browser
test's person chooses, tests/e2e/cakehalla_brain.py, read from their own seat's view), while the
bot answers by its game stream, until both see the final results. The bot's account and token
are made in the site's own database (games/api/tests/on_site.py), as its owner would at Settings.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bench.web.site import base_env
from games.engines import cakehalla
from tests.e2e.cakehalla_brain import decide
from tests.e2e.conftest import ROOT
from tests.e2e.pages import PATIENCE, open_table, pick_unless, sign_up
from tests.e2e.test_cakehalla_play import click_move, wait_for_version

pytestmark = pytest.mark.e2e

BOT = ROOT / "examples" / "bakehouse_bot.py"
GAME_SECONDS = 240.0  # a whole game on a loaded machine (well under a minute on a quiet one)


def make_bot_token(db: str, name: str) -> str:
    """A fresh account (no game yet) in the site's database, and a token for it."""
    env = {**base_env(), "DATABASE_URL": f"sqlite:///{db}"}
    done = subprocess.run(
        [sys.executable, "-m", "games.api.tests.on_site", "account", name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return str(json.loads(done.stdout.strip().splitlines()[-1])[0]["token"])


def example_bot(base: str, token: str, kind: str) -> subprocess.Popen[str]:
    """The example bot as its README runs it, told to take a seat at a table of this game."""
    command = [sys.executable, str(BOT), "--url", base, "--token", token, "--upgrade"]
    command += ["--join", kind, "--games", "1", "--poll", "0.2", "--seed", "3"]
    return subprocess.Popen(command, cwd=ROOT, text=True, stderr=subprocess.PIPE)


def one(db: str, sql: str, *params: object) -> tuple[Any, ...]:
    with sqlite3.connect(db) as conn:
        row: tuple[Any, ...] = conn.execute(sql, params).fetchone()
        return row


def status_of(db: str, game_id: int) -> str:
    return str(one(db, "SELECT status FROM games_game WHERE id = ?", game_id)[0])


def bot_seated(page: Any, db: str, game_id: int, bot: subprocess.Popen[str]) -> None:
    """Wait until the bot sat down, and its seat shows on the person's page marked a bot."""
    deadline = time.monotonic() + GAME_SECONDS
    while one(db, "SELECT count(*) FROM games_seat WHERE game_id = ?", game_id)[0] < 2:
        assert bot.poll() is None, bot.communicate()[1]
        assert time.monotonic() < deadline, "the bot never sat down"
        time.sleep(0.2)
    page.locator("#region-seats .bot-account, .seats .bot-account").first.wait_for()


def started(db: str, game_id: int) -> None:
    """Wait until the host's start has committed (the click returns before its request does; the
    socket is live before it too)."""
    deadline = time.monotonic() + GAME_SECONDS
    while status_of(db, game_id) == "open":
        assert time.monotonic() < deadline, "the game never started"
        time.sleep(0.05)


def play_the_night(page: Any, db: str, game_id: int) -> None:
    """The person keeps the first pastry of each batch they are offered (a bake's results beside
    it are put away by the pick) until the night is over."""
    deadline = time.monotonic() + GAME_SECONDS
    while status_of(db, game_id) != "over":
        assert time.monotonic() < deadline, "the night did not end"
        if not pick_unless(page, "#no-such-region"):
            page.wait_for_timeout(100)  # the bot's pick, or the next board, is on its way


def stored(db: str, game_id: int) -> tuple[Any, int, str]:
    snapshot, version, status = one(
        db, "SELECT snapshot, version, status FROM games_game WHERE id = ?", game_id
    )
    return cakehalla.load(json.loads(snapshot)), int(version), str(status)


def play_cakehalla(page: Any, db: str, game_id: int, seat: int) -> None:
    """The person makes each of their moves by tapping, chosen from their own seat's view, until
    the game is over."""
    done: set[str] = set()
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        state, version, status = stored(db, game_id)
        if status == "over":
            return
        if state.turn != seat:
            time.sleep(0.05)  # the bot's move comes through the API
            continue
        wait_for_version(page, version)
        view: Mapping[str, Any] = json.loads(json.dumps(cakehalla.view(state, seat)))
        action = decide(view, cakehalla.legal_actions(state, seat), done)
        reserved = {r["id"] for r in view["seats"][seat]["reserved"]}
        click_move(page, action, reserved)
        done.add(str(action["type"]))
        wait_for_version(page, version + 1)


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_the_example_bot_plays_a_whole_game_against_a_person_in_chromium(
    browser: Any, daphne_site: dict[str, str], artifacts: Path, kind: str
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    person, bot_name = f"pia-{kind}", f"robo-pia-{kind}"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, person)
    table_url = open_table(page, base, kind, 2)
    game_id = int(table_url.rstrip("/").rsplit("/", 1)[1])
    bot = example_bot(base, make_bot_token(db, bot_name), kind)
    try:
        bot_seated(page, db, game_id, bot)
        start = "Start the night" if kind == "midnight-bakery" else "Start the game"
        page.get_by_role("button", name=start).click()
        page.wait_for_function("() => window.bakehouseLive === true")
        started(db, game_id)
        if kind == "midnight-bakery":
            play_the_night(page, db, game_id)
        else:
            (seat,) = one(
                db,
                "SELECT s.position FROM games_seat s JOIN accounts_user u ON u.id = s.user_id"
                " WHERE s.game_id = ? AND u.username = ?",
                game_id,
                person,
            )
            play_cakehalla(page, db, game_id, int(seat))
        _, said = bot.communicate(timeout=GAME_SECONDS)
    finally:
        if bot.poll() is None:
            bot.kill()
    assert bot.returncode == 0, said
    assert "is now a bot account" in said and f"joined table {game_id}" in said, said
    final = "The night's results" if kind == "midnight-bakery" else "Final standings"
    page.get_by_text(final).first.wait_for()
    assert "winner" in page.locator("#region-results").inner_text()
    page.screenshot(path=str(artifacts / f"example-bot-vs-person-{kind}.png"), full_page=True)
    for name in (person, bot_name):  # every move of each seat its own: no stand-in, no house bot
        own, stand_in = one(
            db,
            "SELECT sum(a.bot = ''), sum(a.bot != '') FROM games_action a"
            " JOIN accounts_user u ON u.id = a.user_id WHERE a.game_id = ? AND u.username = ?",
            game_id,
            name,
        )
        assert own and own > 3 and not stand_in, (name, own, stand_in)
    context.close()
