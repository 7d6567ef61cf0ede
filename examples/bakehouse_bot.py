"""A Bakehouse bot: plays Midnight Bakery and Cakehalla through the public API alone, with a
random legal move, using nothing but Python's standard library (urllib and json).

Try it against your own site:

    make run                                  # the site at http://127.0.0.1:8000
    # Sign up an account for the bot (one that has never sat at a table), then at Settings,
    # Access tokens, make a token with the scopes account:read, games:play and bot:play.
    python examples/bakehouse_bot.py --url http://127.0.0.1:8000 --token bkh_... --upgrade
    # From a person's account, open a table (New game) with a free seat; the bot takes it:
    python examples/bakehouse_bot.py --url http://127.0.0.1:8000 --token bkh_... --join any
    # Or let quick pairing seat it with another bot, or a person who said bots are welcome:
    python examples/bakehouse_bot.py --url http://127.0.0.1:8000 --token bkh_... --seek cakehalla

`--upgrade` makes the account a bot account first (for good: it plays through the API only
and is marked as a bot beside its name). `--join KIND` takes a seat at the newest open table of
that game (`midnight-bakery`, `cakehalla` or `any`) whenever the bot sits at none; `--seek KIND`
enters quick pairing for a two-player table of that game instead (at `--pace`, normal by
default) and waits on its event stream for the table (`gameStart`); with neither, the bot plays
the tables it was seated at. `--games N` stops after N games have ended.

How it plays: it asks for its tables (`GET /api/account/tables`), and plays each through its
game stream (`GET /api/games/{id}/stream`, NDJSON): the first line is the table as its seat
sees it (the view, the version, the legal actions), then a line at each new version. On a line
that waits on its move it posts one legal action with that version (`POST /api/games/{id}/move`);
a 409 (the table moved on meanwhile) waits for the next line. The stream ends once the game is
over; one the site ends for a restart (a deploy), or that drops, is opened again and starts with
the whole table. A 429 waits the seconds its Retry-After says; a site away for a moment is asked
again a little later. Nothing else of the site is used: no page, no socket.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

USER_AGENT = "bakehouse-example-bot/1"
STREAM_QUIET = 60.0
"""Seconds a stream may say nothing before the bot takes it for dropped (the site sends a blank
line every 20 s)."""


class Refused(Exception):
    """An answer other than 2xx that waiting will not cure: its status and the API's sentence."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(f"{status}: {sentence}")
        self.status = status
        self.sentence = sentence


class Client:
    """The API with one token: JSON in, JSON out, a 429 waited out."""

    def __init__(self, url: str, token: str, patience: int = 10) -> None:
        self.base = url.rstrip("/") + "/api"
        self.token = token
        self.patience = patience  # how many waits in a row (429s, a site away) before giving up
        self.waited = 0.0  # seconds spent waiting on Retry-After, for the log

    def call(self, method: str, path: str, body: object = None) -> Any:
        """One request; the answer's JSON (see `open`)."""
        with self.open(method, path, body) as answer:
            return json.loads(answer.read() or b"null")

    def lines(self, path: str) -> Iterator[dict[str, Any]]:
        """A stream's NDJSON lines as they come (its blank keep-alive lines skipped), until the
        site ends it; a connection that drops raises (ConnectionError, TimeoutError...)."""
        with self.open("GET", path, timeout=STREAM_QUIET) as answer:
            for raw in answer:
                if raw.strip():
                    yield json.loads(raw)

    def open(
        self, method: str, path: str, body: object = None, timeout: float = 30
    ) -> http.client.HTTPResponse:
        """One request, its answer open to read. A 429 is waited out (Retry-After); a site that
        does not answer or answers 502/503 (a deploy, a restart) is asked again a little later;
        any other refusal is raised."""
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(self.patience):
            request = urllib.request.Request(self.base + path, data=data, method=method)
            request.add_header("Authorization", f"Bearer {self.token}")
            request.add_header("Accept", "application/json, application/x-ndjson")
            request.add_header("User-Agent", USER_AGENT)
            if data is not None:
                request.add_header("Content-Type", "application/json")
            try:
                answer: http.client.HTTPResponse = urllib.request.urlopen(request, timeout=timeout)
                return answer
            except urllib.error.HTTPError as error:
                said = error.read()
                if error.code == 429:
                    wait = float(error.headers.get("Retry-After") or 1)
                    log(f"too fast: waiting {wait:g} s as the site asks")
                    self.waited += wait
                    time.sleep(wait)
                    continue
                if error.code not in (502, 503):
                    raise Refused(error.code, sentence_of(said)) from None
                self.pause(attempt, f"the site answered {error.code}")
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                self.pause(attempt, f"the site did not answer ({error})")
        raise Refused(0, "still no answer after waiting; giving up")

    def pause(self, attempt: int, why: str) -> None:
        """Wait a little longer each time the site is away (1, 2, 4... up to 30 s)."""
        wait = min(30.0, 2.0**attempt)
        log(f"{why}: trying again in {wait:g} s")
        time.sleep(wait)


def sentence_of(body: bytes) -> str:
    """The API's refusal sentence, or the raw answer if it is not one."""
    try:
        return str(json.loads(body)["error"])
    except (ValueError, KeyError, TypeError):
        return body.decode(errors="replace")[:200]


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def choose(table: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The move to post: a random legal action, with the version (and moment) it was chosen at.
    A better bot reads `table["view"]` (its seat's view of the game) here."""
    move: dict[str, Any] = {"action": rng.choice(table["legal"]), "version": table["version"]}
    if table.get("moment"):
        move["moment"] = table["moment"]
    return move


OVER = ("over", "cancelled", "aborted")
DROPPED = (ConnectionError, TimeoutError, http.client.IncompleteRead, urllib.error.URLError)


def play_table(api: Client, game_id: int, rng: random.Random) -> tuple[dict[str, Any], int]:
    """Play this table through its game stream until the game is over: its last line and the
    moves made. A stream the site ends before (a restart) or that drops is opened again: its
    first line is the whole table again."""
    last: dict[str, Any] = {}
    made = 0
    for attempt in range(api.patience):
        try:
            for line in api.lines(f"/games/{game_id}/stream"):
                if line["type"] in ("gameFull", "gameState"):
                    last = line
                    made += move(api, game_id, line, rng)
                elif line["type"] == "end":
                    if last.get("status") in OVER:
                        return last, made
                    log(f"table {game_id}: {line['why']}")
                    break
        except DROPPED as dropped:
            api.pause(attempt, f"table {game_id}: the stream dropped ({dropped})")
    raise Refused(0, f"table {game_id}: the stream kept ending; giving up")


def move(api: Client, game_id: int, table: dict[str, Any], rng: random.Random) -> int:
    """Post a move if the table waits on the bot (1), else nothing (0)."""
    if table["status"] != "running" or not table["your_move"]:
        return 0
    try:
        api.call("POST", f"/games/{game_id}/move", choose(table, rng))
    except Refused as refused:
        if refused.status != 409:  # 409: the table moved on meanwhile; its next line comes
            raise
        log(f"table {game_id}: {refused.sentence}")
        return 0
    return 1


def join_one(api: Client, kind: str) -> int | None:
    """Take a seat at the newest open table of this game (any game for "any"); its id."""
    query = "" if kind == "any" else f"?game={kind}"
    for table in api.call("GET", f"/tables/open{query}"):
        try:
            api.call("POST", f"/games/{table['id']}/join", {})
        except Refused as refused:  # taken meanwhile, or a block: try the next
            log(f"table {table['id']}: {refused.sentence}")
            continue
        log(f"joined table {table['id']} ({table['game']}, host {table['host']})")
        return int(table["id"])
    return None


def seek_one(api: Client, kind: str, pace: str) -> int | None:
    """Enter quick pairing for a two-player table of this game and wait for the table it seats
    the bot at: at once, or told by the event stream (`gameStart`), which also keeps the seek
    while it is open (the pool lets go of a seek whose stream closed). None if the stream ended
    first: the caller looks again."""
    seek = {"kind": kind, "pace": pace, "fewest": 2, "most": 2}
    table = api.call("POST", "/pairing", seek)["table"]
    if table is None:
        log(f"looking for a {kind} game at {pace} pace")
        try:
            for line in api.lines("/stream/event"):
                if line["type"] == "gameStart":
                    table = line["id"]
                    break
                if line["type"] == "end":
                    log(f"the event stream ended: {line['why']}")
                    return None
        except DROPPED as dropped:
            log(f"the event stream dropped ({dropped})")
            return None
    if table is not None:
        log(f"paired at table {table} ({kind})")
        return int(table)
    return None


def upgrade(api: Client) -> None:
    """Make the account a bot account (a 409 says it is one already, or cannot be)."""
    try:
        answer = api.call("POST", "/bot/account/upgrade")
        log(f"{answer['name']} is now a bot account")
    except Refused as refused:
        if refused.status != 409:
            raise
        log(refused.sentence)


def run(
    api: Client,
    join: str | None,
    games: int,
    poll: float,
    rng: random.Random,
    seek: tuple[str, str] | None = None,
) -> int:
    """Play until `games` games have ended (0: for ever); the number that ended. With `seek`
    (a game and a pace), quick pairing finds the next table whenever the bot sits at none."""
    me = api.call("GET", "/account")
    log(f"playing as {me['name']}{' (bot account)' if me['bot'] else ''}")
    ended = 0
    while not games or ended < games:
        tables = [int(t["id"]) for t in api.call("GET", "/account/tables")]
        if not tables and (join or seek):
            found = join_one(api, join) if join else seek_one(api, *seek) if seek else None
            tables = [found] if found is not None else []
        for game_id in tables:  # one after another: a bot of many tables streams each at once
            last, made = play_table(api, game_id, rng)
            mine: dict[str, Any] = next((s for s in last["seats"] if s["you"]), {})
            log(f"table {game_id}: {last['status']}, place {mine.get('place')}, {made} moves")
            ended += last["status"] == "over"
        if not tables:
            time.sleep(poll)
    return ended


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument("--token", required=True, help="a personal access token (bkh_...)")
    parser.add_argument("--upgrade", action="store_true", help="become a bot account first")
    finding = parser.add_mutually_exclusive_group()
    finding.add_argument("--join", metavar="KIND", help="join open tables of this game, or any")
    finding.add_argument("--seek", metavar="KIND", help="enter quick pairing for this game")
    parser.add_argument("--pace", default="normal", help="the pace quick pairing looks for")
    parser.add_argument("--games", type=int, default=0, help="stop after this many (0: never)")
    parser.add_argument(
        "--poll", type=float, default=1.0, help="seconds between looks for a table to play"
    )
    parser.add_argument("--seed", type=int, default=None, help="for repeatable random moves")
    args = parser.parse_args(argv)
    api = Client(args.url, args.token)
    try:
        if args.upgrade:
            upgrade(api)
        seek = (args.seek, args.pace) if args.seek else None
        ended = run(api, args.join, args.games, args.poll, random.Random(args.seed), seek)
    except Refused as refused:
        log(f"refused: {refused}")
        return 1
    except KeyboardInterrupt:
        return 0
    log(f"done: {ended} game(s) ended; waited {api.waited:g} s on Retry-After")
    return 0


if __name__ == "__main__":
    sys.exit(main())
