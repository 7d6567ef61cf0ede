"""The streams under Daphne, as production serves them (a live process of each test's own, as
the example bot's test starts one): a line comes as it happens, a client that goes away lets
its stream's row go, and a SIGTERM (a deploy) ends an open stream with its last line, the
process then stopping by itself (games/live/drain.py)."""

from __future__ import annotations

import http.client
import json
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from games.api.tests.test_example_bot import Site, running_site
from games.live.streams import RESTARTING

PATIENCE = (
    30.0  # seconds a change may take to show on a loaded machine (a failure, never a measure)
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with running_site(tmp_path) as running:
        yield running


class Opened:
    """One stream read over its own HTTP connection."""

    def __init__(self, site: Site, path: str, token: str) -> None:
        where = urlsplit(site.url)
        self.conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=PATIENCE)
        self.conn.request("GET", f"/api{path}", headers={"Authorization": f"Bearer {token}"})
        self.answer = self.conn.getresponse()
        assert self.answer.status == 200, self.answer.read()
        assert self.answer.getheader("Content-Type") == "application/x-ndjson"

    def lines(self) -> Iterator[dict[str, Any]]:
        """Its lines as they come (blank keep-alives skipped), until the server ends it."""
        for raw in self.answer:
            if raw.strip():
                yield dict(json.loads(raw))


def post(site: Site, path: str, token: str) -> http.client.HTTPResponse:
    where = urlsplit(site.url)
    conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=PATIENCE)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn.request("POST", f"/api{path}", body=b"{}", headers=headers)
    return conn.getresponse()


def until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def open_streams(site: Site) -> int:
    """The streams' rows still open (a game stream's row is closed, kept a while: its person
    was here until then)."""
    rows = "SELECT count(*) FROM games_tablesocket WHERE place = 'stream' AND open"
    return int(str(site.one(rows)[0]))


def a_table(site: Site) -> tuple[int, str]:
    [made] = site.command("prepare", "cakehalla")
    return int(str(made["game"])), str(made["token"])


def test_a_line_comes_as_the_table_changes_and_a_closed_client_lets_go(site: Site) -> None:
    game, token = a_table(site)
    stream = Opened(site, f"/games/{game}/stream", token)
    lines = stream.lines()
    first = next(lines)
    assert first["type"] == "gameFull" and first["status"] == "open"
    assert open_streams(site) == 1
    joined = post(site, f"/games/{game}/join", token)  # the token's account takes the seat
    assert joined.status == 200, joined.read()
    state = next(line for line in lines if line["type"] == "gameState")
    assert [seat["you"] for seat in state["seats"]] == [False, True]
    stream.conn.close()
    until(lambda: open_streams(site) == 0, "the closed stream kept its row")


def test_a_deploy_ends_an_open_stream_and_the_process_stops(site: Site) -> None:
    game, token = a_table(site)
    stream = Opened(site, f"/games/{game}/stream", token)
    lines = stream.lines()
    assert next(lines)["type"] == "gameFull"
    site.proc.send_signal(signal.SIGTERM)
    rest = list(lines)  # until the server ends it
    assert rest[-1] == {"type": "end", "why": RESTARTING}, rest
    assert site.proc.wait(timeout=PATIENCE) == 0
    assert "Drained" in site.log.read_text()
    # Its row is kept open for the client to come back to another process (its person stays
    # here, as a table socket's through a restart), under no cap any more.
    kept = "SELECT count(*) FROM games_tablesocket WHERE place = 'stream' AND open AND owner = ''"
    assert int(str(site.one(kept)[0])) == 1
