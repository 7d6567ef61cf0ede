"""Issue 41, point 3: backups that restore. The drill of docs/operations.md ("Backups and
records") as a test on a small site: finished games of each kind and a running table with a
clock, a page open on it.

The backup is taken with deploy/backup.sh while a Daphne serves the site; deploy/restore_drill.sh
restores it into a new database, where `manage.py verify_games` passes and the site starts.
Then a Daphne runs on the restored database alone: the page that was open reconnects to it and
shows the table at its stored version with its clock, and a move made on a socket there gives the
next version; an action then damaged in the copy fails `verify_games`, named. A game damaged
before the backup fails the drill, named, and the drill's database is dropped.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.db.models import F

from accounts.models import User
from bench.web.site import free_port, with_database
from games import services
from games.boards import epoch_ms
from games.models import Game, Seat
from tests.conftest import needs_env, own_prefix
from tests.flows.outage.test_database_outage import MADE, send_move
from tests.live.test_socket_moves import keep_fields
from tests.support.daphnes import Person, daphnes, shared_database_url
from tests.support.finished_games import finished_game
from tests.support.sockets import session_of, shown_version

# backend: pg_dump reads committed rows and a Daphne serves the restored copy (PostgreSQL, Redis).
pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.skipif(shutil.which("pg_restore") is None, reason="PostgreSQL's tools are absent"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.backend,
    pytest.mark.xdist_group("daphne-processes"),
]

ROOT = Path(django_settings.BASE_DIR)
SECONDS = re.compile(r"in (\d+\.\d) s")
QUIET = {"HOUSE_TABLE": "0"}  # no house table joins the site while the test reads it


@dataclass
class SmallSite:
    """What the test site holds: its finished games, and the running table with its clock."""

    finished: list[Game]
    table: Game


def clocked_table(player: User, rival: User) -> Game:
    """A running two-baker night at the normal pace where the player kept a pastry: the rival's
    clock runs (60 s a move and the 120 s bank: longer than the test)."""
    game = services.create_game(player, "midnight-bakery", 2, pace="normal")
    services.join(game, rival)
    services.start(game, player)
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=player).position
    services.play(game, player, engine.legal_actions(engine.load(game.snapshot), position)[0], None)
    game.refresh_from_db()
    return game


@pytest.fixture
def small_site(player: User, rival: User) -> SmallSite:
    """Two finished games of each kind against bots, and the running table."""
    finished = [
        finished_game([person], kind)
        for kind in ("midnight-bakery", "cakehalla")
        for person in (player, rival)
    ]
    return SmallSite(finished, clocked_table(player, rival))


@pytest.fixture
def drill_database(transactional_db: None) -> Iterator[str]:
    """The name of the drill's database on the test's server, dropped after the test whatever
    the drill left."""
    name = f"bakehouse_drill_test_{os.getpid()}"
    yield name
    with psycopg.connect(with_database(shared_database_url(), "postgres"), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def database_exists(name: str) -> bool:
    with psycopg.connect(with_database(shared_database_url(), "postgres"), autocommit=True) as db:
        found = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    return found is not None


def run(script: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """One of the deploy scripts (or manage.py), as an operator runs it on the test's database."""
    command = [sys.executable, "manage.py", *args] if script == "manage.py" else [script, *args]
    environment = {**os.environ, "DATABASE_URL": shared_database_url(), "PYTHON": sys.executable}
    environment.update(env)
    return subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=240
    )


def said(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout + done.stderr


def seconds_of(line_start: str, output: str) -> float:
    """The seconds a line of the scripts' output reports ("... in 0.3 s")."""
    line = next(line for line in output.splitlines() if line_start in line)
    found = SECONDS.search(line)
    assert found is not None, line
    return float(found.group(1))


def table_row(url: str, game_id: int) -> tuple[int, int]:
    """A table's version and move count as stored in the database at this URL."""
    query = "SELECT version, moves FROM games_game WHERE id = %s"
    with psycopg.connect(url) as db:
        row = db.execute(query, [game_id]).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def damage_an_action(url: str, game_id: int) -> None:
    """Make a finished game's first action one no rule allows, in the database at this URL."""
    query = "UPDATE games_action SET payload = %s WHERE game_id = %s AND seq = 1"
    with psycopg.connect(url) as db:
        db.execute(query, ['{"type": "buy", "card": "no such card"}', game_id])


async def test_a_backup_of_the_running_site_restores_and_its_table_plays_on(
    small_site: SmallSite, player: User, rival: User, drill_database: str, tmp_path: Path
) -> None:
    table = small_site.table
    sessions = {u.pk: await database_sync_to_async(session_of)(u) for u in (player, rival)}
    version, moves = await asyncio.to_thread(table_row, shared_database_url(), table.pk)
    deadline = (await Seat.objects.aget(game=table, user=rival)).deadline
    assert deadline is not None
    dump = tmp_path / "bakehouse.dump"

    # The site runs, a page is open at the table, and the backup is taken.
    with daphnes(1, os.environ["REDIS_URL"], own_prefix("backup"), **QUIET) as site:
        page = Person(site.urls[0], sessions[player.pk])
        assert shown_version(await page.open_socket(table.pk)) == version
        backup = await asyncio.to_thread(run, "deploy/backup.sh", str(dump))
        assert backup.returncode == 0, said(backup)
    assert dump.stat().st_mode & 0o077 == 0  # the dump is its owner's alone

    # The drill: restored into a new database, migrate --check, verify_games, the site started.
    port = str(free_port())
    keep = {"DRILL_DATABASE": drill_database, "DRILL_KEEP": "1", "DRILL_PORT": port, **QUIET}
    drill = await asyncio.to_thread(run, "deploy/restore_drill.sh", str(dump), **keep)
    output = said(drill)
    assert drill.returncode == 0, output
    assert "4 of 4 finished games replay to their stored results" in output
    assert "1 of 1 running tables rebuild to their stored versions" in output
    assert "the site runs on the restored database" in output
    print(
        f"dump {seconds_of('Backed up to', said(backup))} s, "
        f"restore {seconds_of('2. restored', output)} s, "
        f"verify_games {seconds_of('4. every game checked', output)} s, "
        f"drill {seconds_of('passed in', output)} s"
    )

    # The site on the restored database alone: the page reconnects and resyncs, play goes on.
    restored = with_database(shared_database_url(), drill_database)
    with daphnes(1, os.environ["REDIS_URL"], own_prefix("restored"), restored, **QUIET) as site:
        page.base = site.urls[0]  # the site's address now leads to the restored copy
        mover = Person(site.urls[0], sessions[rival.pk])
        try:
            board = await page.until_version(version)  # its socket closed: it opens a new one
            assert page.closes, "the page's socket to the old site never closed"
            assert shown_version(board) == version
            assert f'data-deadline="{epoch_ms(deadline)}"' in board  # the rival's clock runs on
            resync = f"{site.urls[0]}/games/{table.pk}/board/?version={version}"
            assert (await page.http.get(resync)).status_code == 204  # it shows what is stored
            assert shown_version(await mover.open_socket(table.pk)) == version
            fields = await database_sync_to_async(keep_fields)(table, rival)
            made = MADE.search(await send_move(mover, fields))
            assert made is not None and int(made.group(1)) == version + 1
            assert shown_version(await page.until_version(version + 1)) == version + 1
        finally:
            await page.close()
            await mover.close()
    assert await asyncio.to_thread(table_row, restored, table.pk) == (version + 1, moves + 1)
    # The move went to the copy alone: the live site's table is as it was.
    assert await asyncio.to_thread(table_row, shared_database_url(), table.pk) == (version, moves)
    after = await asyncio.to_thread(run, "manage.py", "verify_games", DATABASE_URL=restored)
    assert after.returncode == 0, said(after)
    assert "1 of 1 running tables rebuild" in after.stdout

    # One action of a finished game damaged in the restored copy: named, and the check fails.
    damaged = small_site.finished[2]
    await asyncio.to_thread(damage_an_action, restored, damaged.pk)
    failed = await asyncio.to_thread(run, "manage.py", "verify_games", DATABASE_URL=restored)
    assert failed.returncode == 1, said(failed)
    assert f"game {damaged.pk} (cakehalla, finished): Today's rules refuse move" in failed.stderr
    assert f"1 of 5 games fail the check: game {damaged.pk} (cakehalla, finished)." in failed.stderr


def test_a_damaged_game_fails_the_drill_by_name_and_its_database_is_dropped(
    player: User, rival: User, drill_database: str, tmp_path: Path
) -> None:
    finished = [finished_game([player], kind) for kind in ("midnight-bakery", "cakehalla")]
    table = clocked_table(player, rival)
    damaged = finished[1]
    Seat.objects.filter(game=damaged, position=0).update(score=F("score") + 1)
    Seat.objects.filter(game=table, user=rival).update(deadline=None)  # the waited-on clock
    dump = tmp_path / "bakehouse.dump"
    assert run("deploy/backup.sh", str(dump)).returncode == 0

    drill = run("deploy/restore_drill.sh", str(dump), DRILL_DATABASE=drill_database)
    output = said(drill)
    assert drill.returncode == 1, output
    assert "1 of 2 finished games replay" in output and "0 of 1 running tables" in output
    assert f"game {damaged.pk} (cakehalla, finished): Seat 0" in output
    assert f"game {table.pk} (midnight-bakery, running): Seat" in output
    assert "its clock is not running" in output
    assert f"game {finished[0].pk} " not in output
    assert "2 of 3 games fail the check" in output
    assert "step 4: games fail the check" in output
    assert "5. the site runs" not in output  # it stopped at the failed step
    assert not database_exists(drill_database)  # and dropped what it restored


def test_the_drill_refuses_the_sites_own_database_and_a_missing_dump(tmp_path: Path) -> None:
    own = shared_database_url().rsplit("/", 1)[1]
    dump = tmp_path / "none.dump"
    dump.write_bytes(b"")
    refused = run("deploy/restore_drill.sh", str(dump), DRILL_DATABASE=own)
    assert refused.returncode == 1 and "the site's own database" in refused.stderr
    missing = run("deploy/restore_drill.sh", str(tmp_path / "absent.dump"))
    assert missing.returncode == 1 and "no dump to restore" in missing.stderr
    assert database_exists(own)
