"""The example bot's client (examples/bakehouse_bot.py) on its own, against a tiny scripted
server: a 429 is waited out for the seconds its Retry-After says, then asked again; another
refusal is raised with the API's sentence; the move it posts is a legal one with the version."""

from __future__ import annotations

import importlib.util
import json
import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BOT = Path(__file__).resolve().parents[3] / "examples" / "bakehouse_bot.py"


def load_bot() -> ModuleType:
    """The example as a module (examples/ is no package: it is run as a script)."""
    spec = importlib.util.spec_from_file_location("bakehouse_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bot = load_bot()


class Script(BaseHTTPRequestHandler):
    """Answers each request with the next of `answers` (status, headers, body); notes each."""

    answers: list[tuple[int, dict[str, str], object]] = []
    seen: list[tuple[str, str, str | None]] = []

    def do_GET(self) -> None:
        self.reply()

    def do_POST(self) -> None:
        self.reply()

    def reply(self) -> None:
        self.seen.append((self.command, self.path, self.headers.get("Authorization")))
        status, headers, body = self.answers.pop(0)
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        kind = "application/x-ndjson" if isinstance(body, bytes) else "application/json"
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def server() -> Iterator[str]:
    Script.answers, Script.seen = [], []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Script)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_429_is_waited_out_as_retry_after_says(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    slept: list[float] = []
    monkeypatch.setattr(bot.time, "sleep", slept.append)
    Script.answers = [
        (429, {"Retry-After": "7"}, {"error": "Too many requests: wait 7 s before the next."}),
        (200, {}, {"name": "robo", "bot": True}),
    ]
    api = bot.Client(server, "bkh_abcdefgh_secret")
    assert api.call("GET", "/account") == {"name": "robo", "bot": True}
    assert slept == [7.0] and api.waited == 7.0
    assert [s[:2] for s in Script.seen] == [("GET", "/api/account")] * 2
    assert Script.seen[0][2] == "Bearer bkh_abcdefgh_secret"


def test_another_refusal_is_raised_with_the_apis_sentence(server: str) -> None:
    Script.answers = [(403, {}, {"error": "This token may not do that: it needs the scope."})]
    with pytest.raises(bot.Refused) as refused:
        bot.Client(server, "t").call("POST", "/bot/account/upgrade")
    assert refused.value.status == 403 and "needs the scope" in refused.value.sentence


def test_the_move_is_a_legal_action_with_its_version_and_moment() -> None:
    table = {"legal": [{"type": "keep", "card": "x"}], "version": 12, "moment": "r1p2"}
    move = bot.choose(table, random.Random(1))
    assert move == {"action": {"type": "keep", "card": "x"}, "version": 12, "moment": "r1p2"}


def test_a_site_away_for_a_deploy_is_asked_again_a_little_later(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    slept: list[float] = []
    monkeypatch.setattr(bot.time, "sleep", slept.append)
    Script.answers = [(503, {}, {"error": "Back in a moment."}), (502, {}, {}), (200, {}, [])]
    assert bot.Client(server, "t").call("GET", "/account/tables") == []
    assert slept == [1.0, 2.0]


def test_a_site_that_never_answers_is_given_up_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.time, "sleep", lambda _: None)
    with pytest.raises(bot.Refused, match="giving up"):
        bot.Client("http://127.0.0.1:9", "t", patience=2).call("GET", "/account")


def ndjson(*lines: dict[str, Any]) -> bytes:
    """A stream's body: its lines, with a keep-alive blank line among them."""
    return b"\n" + b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def test_a_table_is_played_by_its_stream_and_opened_again_after_a_restart(server: str) -> None:
    table = {"status": "running", "your_move": True, "legal": [{"take": 1}], "version": 3}
    table |= {"moment": None, "seats": [{"you": True, "place": None}]}
    over = table | {"status": "over", "your_move": False, "version": 9}
    restart = {"type": "end", "why": "The server restarts: open the stream again."}
    Script.answers = [
        (200, {}, ndjson({"type": "gameFull", **table}, restart)),
        (200, {}, {"id": 1, "version": 4, "status": "running"}),  # the move
        (200, {}, ndjson({"type": "gameFull", **over}, {"type": "end", "why": "over"})),
    ]
    last, made = bot.play_table(bot.Client(server, "t"), 1, random.Random(1))
    assert last["status"] == "over" and made == 1
    assert [s[:2] for s in Script.seen] == [
        ("GET", "/api/games/1/stream"),
        ("POST", "/api/games/1/move"),
        ("GET", "/api/games/1/stream"),
    ]
