"""The example bot (examples/bakehouse_bot.py) as its README says to run it: a separate process
that knows only the site's address and a token, against a live Daphne of this module's own
(its own SQLite file, as `make run` serves). For each game, a person opens a table; the bot
upgrades its fresh account to a bot account, finds the table, joins it and, once the host has
started and handed their seat to a house bot, plays every move to the end through the API.

The test reads the site's database file directly (sqlite3) for what happened; it sets the
table up with on_site.py run in the site's environment.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bakery_site import processes
from bench.web.site import base_env, free_port, own_static, wait_ready

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "examples" / "bakehouse_bot.py"
PATIENCE = 90.0  # seconds the games may take on a loaded machine (about 10 s on a quiet one)


class Site:
    """A live Daphne on a free port, its SQLite file and its environment."""

    def __init__(
        self,
        url: str,
        db: Path,
        env: dict[str, str],
        proc: subprocess.Popen[bytes],
        log: Path,
    ) -> None:
        self.url, self.db, self.env, self.proc, self.log = url, db, env, proc, log

    def command(self, *args: str) -> list[dict[str, object]]:
        """Run on_site.py in the site's environment; what it printed."""
        done = subprocess.run(
            [sys.executable, "-m", "games.api.tests.on_site", *args],
            cwd=ROOT,
            env={**self.env, "BOT_MOVES": "inline"},
            capture_output=True,
            text=True,
            check=True,
        )
        found: list[dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
        return found

    def one(self, sql: str, *params: object) -> tuple[object, ...]:
        with sqlite3.connect(self.db) as conn:
            row: tuple[object, ...] = conn.execute(sql, params).fetchone()
            return row


@contextmanager
def running_site(folder: Path, **knobs: str) -> Iterator[Site]:
    """A live Daphne started as production starts one (bakery_site/processes.py, as the deploy
    tests do) on its own SQLite file; stopped after (its log printed if it failed to start)."""
    env = base_env()
    own_static(env, folder)
    db = folder / "db.sqlite3"
    env.update(
        DATABASE_URL=f"sqlite:///{db}",
        HOUSE_TABLE="0",  # no house table's bots moving beside the game
        API_TOKEN_REQUESTS_PER_MINUTE="100000",  # the limits have their own tests
        API_CLIENT_REQUESTS_PER_MINUTE="100000",
        **knobs,
    )
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)
    port = free_port()
    log_path = folder / "daphne.log"
    proc = processes.launch(port, folder / "daphne.pid", log_path, env=env)
    try:
        processes.wait_serving(proc, folder / "daphne.pid")
        wait_ready(f"http://127.0.0.1:{port}", proc)
        yield Site(f"http://127.0.0.1:{port}", db, env, proc, log_path)
    except BaseException:
        print(log_path.read_text(errors="replace")[-4000:])
        raise
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with running_site(tmp_path_factory.mktemp("bot-site")) as running:
        yield running


KINDS = ("midnight-bakery", "cakehalla")


def bot_for(site: Site, token: str, kind: str) -> subprocess.Popen[str]:
    """The example bot, as the README runs it, told to join a table of this game."""
    command = [sys.executable, str(BOT), "--url", site.url, "--token", token, "--upgrade"]
    command += ["--join", kind, "--games", "1", "--poll", "0.1", "--seed", "7"]
    return subprocess.Popen(command, cwd=ROOT, text=True, stderr=subprocess.PIPE)


def joined(site: Site, games: list[int]) -> bool:
    """Whether every table has its two seats taken (its host's and the bot's)."""
    marks = ",".join("?" * len(games))
    seats = f"SELECT count(*) FROM games_seat WHERE game_id IN ({marks})"
    return site.one(seats, *games)[0] == 2 * len(games)


def test_the_example_bot_plays_a_whole_game_of_each_kind_through_the_api(site: Site) -> None:
    made = site.command("prepare", *KINDS)  # one table of each game, one new account for each
    games = [int(str(m["game"])) for m in made]
    started = time.monotonic()
    bots = [bot_for(site, str(m["token"]), kind) for m, kind in zip(made, KINDS, strict=True)]
    try:
        deadline = started + PATIENCE
        while not joined(site, games):
            assert all(b.poll() is None for b in bots), [b.communicate()[1] for b in bots]
            assert time.monotonic() < deadline, "the bots never took their seats"
            time.sleep(0.1)
        site.command("start", *map(str, games))
        said = [b.communicate(timeout=PATIENCE)[1] for b in bots]
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
    print(f"both games played to the end by the example bots in {time.monotonic() - started:.1f} s")
    for bot, err, game, kind in zip(bots, said, games, KINDS, strict=True):
        assert bot.returncode == 0, err
        assert "is now a bot account" in err and f"joined table {game}" in err, err
        assert_played_to_the_end(site, game, f"robo-{kind}")


def assert_played_to_the_end(site: Site, game: int, name: str) -> None:
    """The game is over, the bot account placed, and every move of its seat its own."""
    status, bot_id, api_bot, place = site.one(
        "SELECT g.status, u.id, u.plays_by_api, s.place FROM games_game g"
        " JOIN games_seat s ON s.game_id = g.id JOIN accounts_user u ON u.id = s.user_id"
        " WHERE g.id = ? AND u.username = ?",
        game,
        name,
    )
    assert status == "over" and api_bot == 1 and place is not None
    own, stand_in = site.one(
        "SELECT sum(bot = ''), sum(bot != '') FROM games_action WHERE game_id = ? AND user_id = ?",
        game,
        bot_id,
    )
    assert isinstance(own, int) and own > 3 and not stand_in
