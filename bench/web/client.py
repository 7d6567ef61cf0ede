"""People at tables: each an HTTP client and a websocket, like one browser tab each."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import ssl
import time
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.protocol import State
from websockets.typing import Origin

from bench.web.page import BOARD_LIVE, ID, Element, Page, inputs, pushed_version
from bench.web.players import POLICIES, Post

TABLE_URL = re.compile(r"/games/(\d+)/$")
PAGE_GO = re.compile(r'<template id="page-go" data-url="(/games/\d+/)">')  # groups.go_to
# The new table's part beside it, which live.js swaps in place (games/boards/page.py).
PAGE_SWAP = re.compile(
    r'<template id="page-swap" data-url="(/games/\d+/)"[^>]*>(.*)</template>', re.S
)
TLS = ssl.create_default_context()  # plain http only; one context, not one per person
CLOSE_RESULTS = "/results/close/"
OOB = "hx-swap-oob"  # found with str.find: a regular expression over every tag was slow
POLL_LIVE = 20.0  # live.js: the board every 20 s while the socket is up
POLL_OFFLINE = 3.0  # and every 3 s while it is down
PUSH_AWAITED = 3.0  # a tap answered 204 waits this long for its push before fetching the board
LIVE_HEADER = "X-Bakehouse-Live"
VERSION_HEADER = "X-Bakehouse-Version"  # the version a move made, on its empty (204) answer
MOVE_MADE = re.compile(r'<template id="move-made" data-version="(\d+)">')  # a socket move's answer
REFUSAL = 'id="board-message"'  # a refused move's answer (the words why, and the board)
RETRY_FIRST = 0.5  # a closed socket is reopened after 0.5 s, doubling up to 15 s
RETRY_MAX = 15.0
SERVICE_RESTART = 3012  # games/live/protocol.py: the process is stopping, come back at once
RESTART_SPREAD = 0.1  # live.js: a restart's reconnects spread over 0.1 s
# A browser waits for a socket's handshake as long as the server does (Daphne's
# --websocket_connect_timeout, 30 s in bakery_site/processes.py); giving up sooner and trying
# again would add handshakes a browser never makes.
HANDSHAKE_TIMEOUT = 30.0
Policy = Callable[[Page, random.Random], Post | None]


@dataclass
class Answer:
    """What came of a move sent on the socket: "made" or "refused" (its answer on the socket),
    "crossed" (the socket closed with SERVICE_RESTART before its answer: the board the page's new
    socket brings answers it, with the move if it was made), "dropped" (any other close before
    its answer), "timeout" (nothing within the timeout)."""

    kind: str
    html: str = ""


@dataclass
class Tally:
    """Everything a run counts."""

    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each measured move was sent
    answers: list[float] = field(default_factory=list)
    accepted: Counter[int] = field(default_factory=Counter)
    refused: Counter[int | str] = field(default_factory=Counter)  # HTTP status, or "socket"
    errors: Counter[str] = field(default_factory=Counter)
    other_taps: int = 0
    measured: int = 0  # moves accepted while the clock ran (the rates are of these)
    kinds: Counter[str] = field(default_factory=Counter)
    games: list[int] = field(default_factory=list)
    finished: int = 0
    stale: int = 0
    resyncs: int = 0
    measuring: bool = False
    errors_before: int = 0
    seated_in: float = 0.0
    lags: list[float] = field(default_factory=list)  # the generator's own loop lag (see lag_probe)
    lag_at: list[float] = field(default_factory=list)  # when each lag was seen
    closes: Counter[int] = field(default_factory=Counter)  # sockets the site closed, by code
    closed: list[tuple[float, int, str]] = field(default_factory=list)  # (at, code, process)
    backs: list[tuple[float, float]] = field(default_factory=list)  # (closed at, seconds to board)
    handshakes: list[tuple[float, float]] = field(default_factory=list)  # a reopening's (at, s)
    crossed: Counter[int] = field(default_factory=Counter)  # socket moves met by a 3012 (Answer)
    moved: list[tuple[int, int, float]] = field(default_factory=list)  # (game, version, sent at)
    current: dict[int, int] = field(default_factory=dict)  # each table's game now (by its id())

    def accept(self, game_id: int, post: Post) -> None:
        """Count a move the site took, however it was sent; by kind only while the clock runs."""
        self.accepted[game_id] += 1
        if self.measuring:
            self.measured += 1
            self.kinds[move_type(post)] += 1


class Person:
    """One person's browser: cookies, the table page, and its socket."""

    def __init__(
        self, name: str, session: str, base: str, timeout: float, language: str = ""
    ) -> None:
        self.name = name
        self.base = base
        self.timeout = timeout
        # The browser's language (bench.web's BENCH_WEB_LANGUAGES), sent as a browser sends it.
        self.said = {"Accept-Language": language} if language else {}
        self.http = httpx.AsyncClient(
            base_url=base, timeout=timeout, follow_redirects=False, verify=TLS, headers=self.said
        )
        self.http.cookies.set("sessionid", session)
        self._page = Page("")
        self.queue: list[str] = []
        self.ended = ""
        self.url = ""
        self.socket: ClientConnection | None = None
        self.changed = asyncio.Event()
        self.pushes: list[tuple[int, float]] = []
        self.token = ""
        self.last_poll = 0.0
        self.last_heard = 0.0
        self.awaiting: asyncio.Future[None] | None = None
        self.awaited = 0
        self.answer: asyncio.Future[Answer] | None = None
        self.crossing = False  # the socket closed with SERVICE_RESTART before the answer came
        self.restarting = False  # live.js: reopening at once after a restart (no slow poll)
        self.closed_at: float | None = None  # when the site closed the socket, until a new board
        self.go_to = ""  # live.js: a table the site sent this person's pages to (page.go)
        self.go_part = ""  # and that table's part, if the message carried it (page-swap)
        self.went = asyncio.Event()

    @property
    def page(self) -> Page:
        """The page as the person sees it: every message received so far swapped in, in order."""
        kept = superseding(self.queue)
        for html in self.queue:
            self._page.apply(html, versions_only=html not in kept)
        self.queue.clear()
        return self._page

    def receive(self, html: str) -> None:
        """A pushed message; it is swapped in when the person next looks (see idle())."""
        self.queue.append(html)
        # live.js: a board piece that fits counts as the slow poll. Messages are swapped in only
        # when the person looks, so any message counts here: one that does not fit is healed
        # by a fetch of the whole board anyway (heal).
        self.last_heard = time.perf_counter()
        self.note_end(html)
        go = PAGE_GO.search(html) if "page-go" in html else None
        if go is not None:
            self.go_to = go.group(1)
            swap = PAGE_SWAP.search(html)
            self.go_part = swap.group(2) if swap is not None and swap.group(1) == self.go_to else ""
            self.went.set()
        answer = self.answer
        if answer is not None and not answer.done():
            if self.crossing:
                if pushed_version(html) is not None:  # the new socket's board
                    answer.set_result(Answer("crossed", html))
            elif MOVE_MADE.search(html):
                answer.set_result(Answer("made", html))
            elif REFUSAL in html:
                answer.set_result(Answer("refused", html))
        self.changed.set()

    def lost_socket(self, code: int) -> None:
        """The site closed this page's socket: a move awaiting its answer is answered by the
        next socket's board after a restart (live.js), else it was dropped."""
        answer = self.answer
        if answer is None or answer.done():
            return
        if code == SERVICE_RESTART:
            self.crossing = True
        else:
            answer.set_result(Answer("dropped"))

    def live(self) -> bool:
        """live.js: whether the socket is open (readyState OPEN), so a move goes on it."""
        return self.socket is not None and self.socket.state is State.OPEN

    async def play_on_socket(self, data: dict[str, str]) -> Answer | None:
        """live.js: a move tapped while the socket is up goes on it, as the fields its form posts;
        what came of it (see Answer), None if the socket could not take it (live.js then posts
        the move)."""
        assert self.socket is not None
        self.answer = asyncio.get_running_loop().create_future()
        try:
            try:
                await self.socket.send(json.dumps({"type": "play", "fields": data}))
            except ConnectionClosed:
                return None
            return await asyncio.wait_for(self.answer, self.timeout)
        except TimeoutError:
            return Answer("timeout")
        finally:
            self.answer = None
            self.crossing = False

    async def close_on_socket(self, data: dict[str, str]) -> None:
        """live.js: results closed while the socket is up go on it, as the fields its form posts;
        no version is awaited (as live.js awaits none): the answer redraws this board."""
        assert self.socket is not None
        try:
            await self.socket.send(json.dumps({"type": "close_results", "fields": data}))
        except ConnectionClosed:
            with contextlib.suppress(httpx.HTTPError, OSError):
                await self.resync(False)

    def note_end(self, html: str) -> None:
        """Remember that the game ended (its results link to the replay)."""
        if self.ended and self.ended in html:
            self.ended = "yes"

    def idle(self) -> bool:
        """Whether the messages not yet swapped in leave nothing to press (a cheap look).

        Swapping every message in costs the load generator more CPU than the server at 100
        tables; a person who is not asked to move and has no results to close need not look.
        """
        if not self.queue:
            return False
        if any(CLOSE_RESULTS in html for html in self.queue):
            return False
        for html in reversed(self.queue):
            tag = BOARD_LIVE.search(html)
            if tag is not None:
                return 'data-your-move="no"' in tag.group(0)
        return False

    def route(self, base: str) -> None:
        """Send this person's next requests and socket to this process (the load balancer)."""
        self.base = base
        self.http.base_url = httpx.URL(base)

    def csrf(self) -> str:
        """The CSRF token the page's <body hx-headers> carries."""
        body = next((e for e in self.page.root.walk() if e.tag == "body"), None)
        headers = json.loads(body.attrs.get("hx-headers", "{}")) if body is not None else {}
        return str(headers.get("X-CSRFToken", ""))

    async def open(self, url: str) -> None:
        """Load a page (GET), as a browser does before anything else."""
        answer = await self.http.get(url)
        answer.raise_for_status()
        self.show(url, answer.text)

    def swap_in(self, url: str) -> bool:
        """live.js swapTo: the table's part the page.go to `url` carried, in place of the page's
        (its CSRF token stays the page's); False if that message carried none (the page GETs
        it)."""
        if not self.go_part or url != self.go_to:
            return False
        self.url = url
        self.queue.clear()
        self._page = Page(self.go_part)
        self.go_part = ""
        return True

    async def go(self, url: str) -> None:
        """To the table the site sent this person to: swapped in place, else loaded."""
        if not self.swap_in(url):
            await self.open(url)

    def show(self, url: str, text: str) -> None:
        """A whole page, loaded from this URL, as the browser shows it."""
        self.url = url
        self.queue.clear()
        self._page = Page(text)
        self.token = self.csrf()

    async def hx_post(
        self, url: str, data: dict[str, str], target: str = "board"
    ) -> httpx.Response:
        """An htmx post: its headers and the page's CSRF header; the answer goes through apply()."""
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": self.base + self.url,
            "HX-Target": target,
            "X-CSRFToken": self.token,
        }
        if self.live():
            headers[LIVE_HEADER] = "1"  # live.js: the socket brings the new board
        answer = await self.http.post(url, data=data, headers=headers)
        if 200 <= answer.status_code < 300 and answer.text:
            self.page.apply(answer.text)
            self.last_heard = time.perf_counter()  # live.js: a board that fits counts as a poll
            self.note_end(answer.text)
            self.changed.set()
        elif answer.status_code == 204 and answer.headers.get(VERSION_HEADER, "").isdigit():
            self.awaited = int(answer.headers[VERSION_HEADER])
            self.awaiting = asyncio.ensure_future(self.await_push(self.awaited))
        return answer

    def waiting_for_push(self) -> bool:
        """live.js: after a tap answered 204, the table takes no tap until its board arrives."""
        if self.awaited and (self.page.version() or 0) >= self.awaited:
            self.awaited = 0
        return bool(self.awaited)

    async def await_push(self, made: int) -> None:
        """live.js: a tap answered 204 whose push has not come within 3 s fetches the board."""
        await asyncio.sleep(PUSH_AWAITED)
        if self.socket is not None and (self.page.version() or 0) < made:
            await self.resync(False)
        self.awaited = 0
        self.changed.set()

    async def resync(self, whole: bool) -> None:
        """GET the board as the page does after a failed tap, and on its slow poll."""
        self.last_poll = time.perf_counter()
        board = self.page.data("live", "board")
        version = self.page.version()
        params = {} if whole or version is None else {"version": str(version)}
        answer = await self.http.get(board, params=params, headers={"HX-Request": "true"})
        if answer.status_code == 200:
            self.page.gap = False
            self.page.apply(answer.text)
            self.note_end(answer.text)
            self.changed.set()

    async def connect(self) -> None:
        """Open the page's socket (#live's data-socket) with its cookies and the page's Origin."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws_url = self.base.replace("http://", "ws://") + self.page.data("live", "socket")
        self.socket = await connect(
            ws_url,
            origin=Origin(self.base),
            additional_headers={"Cookie": cookie, **self.said},
            open_timeout=max(self.timeout, HANDSHAKE_TIMEOUT),
            ping_interval=None,
            max_size=None,
        )

    async def close(self) -> None:
        """Close the socket and the HTTP connections."""
        if self.awaiting is not None:
            self.awaiting.cancel()
        if self.socket is not None:
            await self.socket.close()
            self.socket = None
        await self.http.aclose()


def swapped_ids(html: str) -> set[str]:
    """The ids a message swaps (its out-of-band elements), read without parsing it."""
    ids = set()
    at = html.find(OOB)
    while at >= 0:
        start = html.rfind("<", 0, at)
        end = html.find(">", at)
        if start >= 0 and end >= 0 and html.rfind(">", start, at) < 0:  # inside a tag
            found = ID.search(html, start, end)
            if found is not None:
                ids.add(found.group(1) or found.group(2) or "")
        at = html.find(OOB, at + len(OOB))
    return ids


def superseding(queue: list[str]) -> list[str]:
    """The messages of a queue that a later one does not overwrite entirely, oldest first.

    Swapping in every message only for the next one to replace the same elements would cost the
    load generator more CPU than the server; what the page ends up showing is the same.
    """
    covered: set[str] = set()
    kept = []
    for html in reversed(queue):
        ids = swapped_ids(html)
        if "board" in covered or (ids and ids <= covered):
            continue
        covered |= ids
        kept.append(html)
    return kept[::-1]


class Table:
    """Four people at one game, and when each of their sockets saw each version."""

    def __init__(
        self,
        people: list[Person],
        game: str,
        tally: Tally,
        timeout: float,
        route: Callable[[int], str | None] = lambda game_id: None,
    ) -> None:
        self.people = people
        self.route = route  # the process a table's requests go to (None: each person's own)
        self.game = game
        self.tally = tally
        self.timeout = timeout
        self.game_id = 0
        self.tick = asyncio.Event()
        self.readers: list[asyncio.Task[None]] = []
        self.closing = False

    def arrival(self, seat: int, version: int) -> float | None:
        """When seat's socket first held a version at least this one."""
        return next((t for v, t in self.people[seat].pushes if v >= version), None)

    def notify(self) -> None:
        """Wake whoever waits on this table's sockets."""
        tick, self.tick = self.tick, asyncio.Event()
        tick.set()

    async def read(self, seat: int) -> None:
        """A socket's messages: note each version and when, apply it; reconnect as live.js does
        (at once, within RESTART_SPREAD, after a SERVICE_RESTART; else with its back-off)."""
        person = self.people[seat]
        retries = 0
        wait = 0.0
        while not self.closing:
            if person.socket is None:
                await asyncio.sleep(wait)
                began = time.perf_counter()
                try:
                    await person.connect()
                except (OSError, WebSocketException, TimeoutError) as exc:
                    self.tally.errors[f"socket connect: {type(exc).__name__}"] += 1
                    wait, retries = back_off(retries), retries + 1
                    person.restarting = False  # live.js: a failed reopening is an outage
                    continue
                self.tally.handshakes.append((began, time.perf_counter() - began))
                retries, person.restarting = 0, False  # live.js: onopen
            socket = person.socket
            assert socket is not None
            try:
                async for message in socket:
                    self.heard(person, message)
            except ConnectionClosed:
                pass
            if self.closing:
                return
            self.tally.errors["socket closed"] += 1
            code = socket.close_code or 0
            self.tally.closes[code] += 1
            self.tally.closed.append((time.perf_counter(), code, person.base))
            person.socket = None
            if person.closed_at is None:
                person.closed_at = time.perf_counter()
            person.lost_socket(code)
            if 4000 <= code < 5000:
                return
            if code == SERVICE_RESTART and not person.restarting:
                wait, person.restarting = random.uniform(0, RESTART_SPREAD), True
            else:
                wait, retries = back_off(retries), retries + 1
                person.restarting = False

    def heard(self, person: Person, message: str | bytes) -> None:
        """One message of a socket: note its version and when (and the board back after a
        close), apply it."""
        now = time.perf_counter()
        html = message if isinstance(message, str) else message.decode()
        version = pushed_version(html)
        if version is not None:
            person.pushes.append((version, now))
            if person.closed_at is not None:
                self.tally.backs.append((person.closed_at, now - person.closed_at))
                person.closed_at = None
        person.receive(html)
        self.notify()

    async def poll(self, seat: int) -> None:
        """The page's slow poll: the board every 20 s while live, every 3 s while not, counted
        (live.js: lastPoll) from the last poll or board piece, whichever socket brought it: a
        page whose socket just closed polls only if its board has been quiet 3 s. None while the
        page reopens its socket after a restart: the new socket brings the board."""
        person = self.people[seat]
        while not self.closing:
            await asyncio.sleep(1.0)
            if person.restarting:
                continue
            every = POLL_LIVE if person.live() else POLL_OFFLINE
            last = max(person.last_poll, person.last_heard)
            if time.perf_counter() - last < every or self.closing:
                continue
            try:
                await person.resync(whole=False)
            except (httpx.HTTPError, OSError) as exc:
                self.tally.errors[f"poll: {type(exc).__name__}"] += 1

    async def everyone_holds(self, version: int, sent: float) -> None:
        """Record the time from the post to the last socket holding this version (or a timeout)."""
        deadline = sent + self.timeout
        if self.tally.measuring:  # what the API's streams beside the tables time (streams.py)
            self.tally.moved.append((self.game_id, version, sent))
        while True:
            tick = self.tick
            times = [self.arrival(seat, version) for seat in range(len(self.people))]
            if all(t is not None for t in times):
                if self.tally.measuring:
                    self.tally.latencies.append(max(t for t in times if t is not None) - sent)
                    self.tally.sent_at.append(sent)
                return
            left = deadline - time.perf_counter()
            if left <= 0 or self.closing:
                self.tally.errors["screen not updated in time"] += 1
                return
            try:
                await asyncio.wait_for(tick.wait(), left)
            except TimeoutError:
                continue

    async def seat(self) -> None:
        """As people at browsers seat a table: the host makes it with the new-table form (the
        answer's redirect opens its page); each guest opens the page and takes a seat with its
        Join button (htmx: the answer is the board); every page opens its socket on load; the
        host presses Start once the pushes show every seat taken."""
        host = self.people[0]
        await host.open("/games/new/")
        form = next(
            e for e in host.page.root.walk() if e.tag == "form" and not e.attrs.get("action")
        )
        data = inputs(form) | selects(form) | {"kind": self.game, "capacity": str(len(self.people))}
        data.pop("private", None)
        answer = await host.http.post("/games/new/", data=data, headers={"Referer": host.base})
        found = TABLE_URL.search(answer.headers.get("location", ""))
        if answer.status_code != 302 or found is None:
            raise RuntimeError(f"new table refused ({answer.status_code})")
        self.game_id = int(found.group(1))
        self.tally.games.append(self.game_id)
        self.tally.current[id(self)] = self.game_id
        table_url = f"/games/{self.game_id}/"
        process = self.route(self.game_id)
        self.closing = False
        for seat, person in enumerate(self.people):
            person.ended = f"/games/{self.game_id}/replay/"
            if process is not None:
                person.route(process)
            await person.open(table_url)
            person.pushes = []
            person.last_poll = 0.0
            await person.connect()
            self.readers.append(asyncio.create_task(self.read(seat)))
            self.readers.append(asyncio.create_task(self.poll(seat)))
            if person is not host:
                join = posting(list(person.page.root.walk()), "/join/")
                if join is None:
                    raise RuntimeError("no Join button")
                (await person.hx_post(join.attrs["hx-post"], {})).raise_for_status()
        start = await self.full_table(host)
        (await host.hx_post(start.attrs["hx-post"], {})).raise_for_status()

    async def sit_down(self, game_id: int) -> None:
        """As people sent to a table the site seated them at (a tournament's): each opens its
        page and its socket; the game has started already."""
        self.game_id = game_id
        self.tally.games.append(game_id)
        self.tally.current[id(self)] = game_id
        process = self.route(game_id)
        self.closing = False
        for seat, person in enumerate(self.people):
            person.ended = f"/games/{game_id}/replay/"
            url = f"/games/{game_id}/"
            if process is not None:
                person.route(process)
            await person.go(url)
            person.go_to = ""
            person.went.clear()
            person.pushes = []
            person.last_poll = 0.0
            await person.connect()
            self.readers.append(asyncio.create_task(self.read(seat)))
            self.readers.append(asyncio.create_task(self.poll(seat)))

    async def full_table(self, host: Person) -> Element:
        """The host's Start button, once the pushes show every seat taken (within the timeout)."""
        deadline = time.perf_counter() + self.timeout
        while True:
            host.changed.clear()
            shown = list(host.page.root.walk())
            start = posting(shown, "/start/")
            if start is not None and not any(e.attrs.get("class") == "empty" for e in shown):
                return start
            left = deadline - time.perf_counter()
            if left <= 0:
                raise RuntimeError("the table never showed full")
            try:
                await asyncio.wait_for(host.changed.wait(), left)
            except TimeoutError:
                continue

    async def seat_or_count(self) -> None:
        """Seat the table; a failure is counted as an error and leaves the table out."""
        try:
            await self.seat()
        except (httpx.HTTPError, OSError, WebSocketException, RuntimeError, StopIteration) as exc:
            self.tally.errors[f"seating: {type(exc).__name__}"] += 1
            await self.leave()

    def over(self) -> bool:
        """Whether the game ended (its results link to the replay)."""
        return any(p.ended == "yes" for p in self.people)

    async def leave(self) -> None:
        """Close every socket of the table."""
        self.closing = True
        for person in self.people:
            if person.socket is not None:
                await person.socket.close()
                person.socket = None
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        self.readers = []


def back_off(retries: int) -> float:
    """live.js: the wait before reopening a socket after this many failed tries."""
    return min(RETRY_MAX, RETRY_FIRST * 2**retries) * random.uniform(0.5, 1)


def posting(elements: list[Element], action: str) -> Element | None:
    """The element among these that htmx-posts to a URL ending in `action`."""
    return next((e for e in elements if e.attrs.get("hx-post", "").endswith(action)), None)


def selects(form: object) -> dict[str, str]:
    """Each <select>'s chosen option (the selected one, else the first)."""
    out: dict[str, str] = {}
    for element in form.walk():  # type: ignore[attr-defined]
        if element.tag != "select" or not element.attrs.get("name"):
            continue
        options = [o for o in element.walk() if o.tag == "option"]
        chosen = next(
            (o for o in options if "selected" in o.attrs), options[0] if options else None
        )
        if chosen is not None:
            out[element.attrs["name"]] = chosen.attrs.get("value", "")
    return out


# BENCH_WEB_MOVES=post: moves are posted (with the live header, as live.js posts while its socket
# is up but a network keeps it from sending on it) instead of sent on the socket (the default).
MOVES = os.environ.get("BENCH_WEB_MOVES", "socket")


async def send(person: Person, table: Table, post: Post) -> asyncio.Task[None] | None:
    """Send what the page sends; for an accepted move, a task that waits for every socket."""
    on_socket = MOVES != "post" and person.live()
    if post.move and on_socket and post.url == person.page.data("live", "play"):
        measure = await send_on_socket(person, table, post)
        if not isinstance(measure, NotSent):
            return measure
    elif person.live() and post.url == person.page.data("live", "close-results"):
        await person.close_on_socket(post.data)  # live.js: its push redraws the board
        table.tally.other_taps += 1
        return None
    tally = table.tally
    sent = time.perf_counter()
    try:
        answer = await person.hx_post(post.url, post.data)
    except (httpx.HTTPError, OSError) as exc:
        tally.errors[f"post: {type(exc).__name__}"] += 1
        return None
    status = answer.status_code
    if tally.measuring:
        tally.answers.append(time.perf_counter() - sent)
    if status >= 300:
        if status in {400, 409}:
            tally.refused[status] += 1
        else:
            tally.errors[f"HTTP {status}"] += 1
        try:
            await person.resync(whole=True)
        except (httpx.HTTPError, OSError) as exc:
            tally.errors[f"resync: {type(exc).__name__}"] += 1
    elif not post.move:
        tally.other_taps += 1
    else:
        tally.accept(table.game_id, post)
        made = answer.headers.get(VERSION_HEADER, "")
        version = int(made) if made.isdigit() else pushed_version(answer.text)
        if version is not None:
            return asyncio.create_task(table.everyone_holds(version, sent))
        tally.errors["answer without a version"] += 1
    return None


class NotSent:
    """A move the socket could not take (it was closing): live.js posts it instead."""


NOT_SENT = NotSent()


async def send_on_socket(
    person: Person, table: Table, post: Post
) -> asyncio.Task[None] | NotSent | None:
    """A move on the socket, as live.js sends it; a refusal brings its board, nothing to fetch.

    A move the socket's SERVICE_RESTART crossed is answered by the new socket's board: counted
    in `crossed` (whether it was made is read from the database afterwards), and measured to
    every screen from that board's version."""
    tally = table.tally
    sent = time.perf_counter()
    answer = await person.play_on_socket(post.data)
    if answer is None:
        return NOT_SENT
    if answer.kind in {"timeout", "dropped"}:
        tally.errors[f"socket move unanswered ({answer.kind})"] += 1
        await heal(person, tally)
        return None
    if tally.measuring:
        tally.answers.append(time.perf_counter() - sent)
    if answer.kind == "crossed":
        tally.crossed[table.game_id] += 1
        version = pushed_version(answer.html)
        return asyncio.create_task(table.everyone_holds(version or 0, sent))
    made = MOVE_MADE.search(answer.html)
    if made is None:
        tally.refused["socket"] += 1
        return None
    tally.accept(table.game_id, post)
    return asyncio.create_task(table.everyone_holds(int(made.group(1)), sent))


async def heal(person: Person, tally: Tally) -> None:
    """A piece that did not fit the board shown: fetch the whole board, as live.js does."""
    tally.resyncs += 1
    try:
        await person.resync(whole=True)
    except (httpx.HTTPError, OSError) as exc:
        tally.errors[f"resync: {type(exc).__name__}"] += 1


def move_type(post: Post) -> str:
    """The type of a posted move ("keep", "take", ...)."""
    try:
        return str(json.loads(post.data.get("action", "")).get("type", "?"))
    except (ValueError, AttributeError):
        return "?"


async def keep_playing(table: Table, think: float, rng: random.Random, until: float) -> None:
    """Play the table until the deadline; a finished game is followed by a new one."""
    policy = POLICIES[table.game]
    while time.perf_counter() < until:
        await asyncio.gather(*(play(p, table, policy, rng, think, until) for p in table.people))
        if not table.over():
            return
        table.tally.finished += 1
        await table.leave()
        if time.perf_counter() < until:
            await table.seat_or_count()


async def play(
    person: Person, table: Table, policy: Policy, rng: random.Random, think: float, until: float
) -> None:
    """Think (exponential), press what the page offers, until the deadline or the game's end."""
    measures: list[asyncio.Task[None]] = []
    while (left := until - time.perf_counter()) > 0 and not table.closing:
        person.changed.clear()
        if table.over():
            break
        if person.page.gap:
            await heal(person, table.tally)
        if person.waiting_for_push() or person.idle() or policy(person.page, rng) is None:
            try:
                await asyncio.wait_for(person.changed.wait(), left)
            except TimeoutError:
                break
            continue
        await asyncio.sleep(min(rng.expovariate(1 / think), left))
        post = policy(person.page, rng) if time.perf_counter() < until else None
        if post is not None:
            measure = await send(person, table, post)
            if measure is not None:
                measures.append(measure)
    await asyncio.gather(*measures, return_exceptions=True)


LAG_PROBE_SECONDS = 0.05


async def lag_probe(tally: Tally) -> None:
    """How late this load generator's own event loop wakes (seconds past a 50 ms sleep), while
    measuring. Every arrival is stamped when the loop gets to it, so a busy generator adds about
    this much to each latency it reports: the floor under its figures on a shared machine."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_PROBE_SECONDS)
        if tally.measuring:
            woke = time.perf_counter()
            tally.lags.append(max(0.0, woke - asked - LAG_PROBE_SECONDS))
            tally.lag_at.append(woke)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def router(route: str, urls: list[str]) -> Callable[[int], str | None]:
    """How the load balancer picks a process for a table's requests and sockets.

    "table": by the table's id, as deploy/nginx.conf hashes it (a table's people all reach one
    process); "seat": each person keeps the process their seat was given (any request anywhere,
    a table's four people on both processes).
    """
    if route == "table":
        return lambda game_id: urls[zlib.crc32(str(game_id).encode()) % len(urls)]
    if route == "seat":
        return lambda game_id: None
    raise SystemExit(f"Unknown route {route!r}: use table or seat.")


def stale_sockets(tables: list[Table]) -> int:
    """Sockets whose last push is older than the newest version their table showed anyone."""
    stale = 0
    for table in tables:
        newest = max((p.page.version() or 0) for p in table.people)
        newest = max([newest, *(v for p in table.people for v, _ in p.pushes)])
        stale += sum(1 for p in table.people if (p.pushes[-1][0] if p.pushes else -1) < newest)
    return stale
