"""bench-web's rolling restart (issue 41): the tables run's load (BENCH_WEB_TABLES tables of four,
moves on the socket as live.js sends them) and, BENCH_WEB_ROLL_AT seconds into the clock (half
of BENCH_WEB_SECONDS unless set), a rolling deploy of every Daphne process in turn, as
bakery_site/processes.py rolls them: a new process serves on the port, then the old one gets
SIGTERM and drains (games/live/drain.py). The pages behave as live.js does: after a close with
SERVICE_RESTART each comes back to the same address within half a second, and gets the whole
board on its new socket (bench/web/client.py).

The restart window runs from the first roll's start to SETTLE seconds after the last process
exited; every count is printed for the window and outside it. BENCH_WEB_PROXY=nginx puts
deploy/nginx.conf in front (its addresses changed to the run's ports) and sends everything
through it.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from bakery_site import processes
from bench.web import nginx
from bench.web import site as sites
from bench.web.client import MOVES, SERVICE_RESTART, Tally, percentile
from bench.web.site import Site

NAME = "restart"
SETTLE = 2.0  # seconds after the last old process exited that still count as the restart
ABNORMAL = 1006  # no close frame: the socket just dropped
NGINX_ERROR = re.compile(r"\[(?:error|crit|alert|emerg)\] \d+#\d+: (?:\*\d+ )?(.*?)(?: while |,|$)")
ACCESS_STATUS = re.compile(r'"(?P<method>[A-Z]+) (?P<path>\S+) [^"]*" (?P<status>\d{3}) ')


def print_backs_by_second(backs: list[tuple[float, float]], rolling: Rolling, clock: float) -> None:
    """The pages back within, by the second of the clock their socket closed in (the closes
    are paced, games/live/drain.py): where in a roll the slow ones were."""
    seconds: dict[int, list[float]] = {}
    for at, took in backs:
        if rolling.inside(at):
            seconds.setdefault(int(at - clock), []).append(took)
    if seconds:
        cells = [
            f"{second}s:{1000 * percentile(t, 95):.0f}({len(t)})"
            for second, t in sorted(seconds.items())
        ]
        print("   back within p95 ms (sockets) by the second they closed: " + " ".join(cells))


def roll_at(seconds: float) -> float:
    """When the roll starts, in seconds of the clock (BENCH_WEB_ROLL_AT, else halfway)."""
    return float(os.environ.get("BENCH_WEB_ROLL_AT", str(seconds / 2)))


@dataclass
class Roll:
    """One process's step of the roll (perf_counter seconds)."""

    process: int
    began: float
    serving: float  # the new process served
    exited: float  # the old one had drained and exited
    drained: float  # seconds from its SIGTERM to its exit


@dataclass
class Mark:
    """The tally's counts at one moment."""

    at: float
    errors: Counter[str]
    refused: Counter[int | str]
    closes: Counter[int]
    crossed: int
    accepted: int


def mark(tally: Tally) -> Mark:
    """The tally's counts now."""
    return Mark(
        perf_counter(),
        Counter(tally.errors),
        Counter(tally.refused),
        Counter(tally.closes),
        sum(tally.crossed.values()),
        sum(tally.accepted.values()),
    )


@dataclass
class Rolling:
    """A rolling deploy of every process of the site, `at` seconds after the clock starts."""

    site: Site
    at: float
    rolls: list[Roll] = field(default_factory=list)
    logged: dict[str, int] = field(default_factory=dict)  # each Daphne log's size before the run
    marks: list[Mark] = field(default_factory=list)
    clock: float = 0.0

    def note_logs(self) -> None:
        """Remember how far each Daphne log goes (earlier runs of the set-up wrote to them)."""
        logs = self.site.folder.glob("daphne-*.log")
        self.logged = {str(log): log.stat().st_size for log in logs}

    async def run(self, tally: Tally) -> None:
        """Wait, then roll each process in turn (the load goes on meanwhile)."""
        self.clock = perf_counter()
        await asyncio.sleep(self.at)
        self.marks.append(mark(tally))
        print(f"   rolling {len(self.site.ports)} processes from {self.at:.0f} s", flush=True)
        for i in range(len(self.site.ports)):
            began = perf_counter()
            drained = await asyncio.to_thread(sites.roll, self.site, i)
            exited = perf_counter()
            self.rolls.append(Roll(i, began, exited - drained, exited, drained))
        await asyncio.sleep(SETTLE)
        self.marks.append(mark(tally))

    def window(self) -> tuple[float, float]:
        """The restart window (perf_counter seconds): the first roll's start to SETTLE past the
        last exit."""
        if len(self.marks) < 2:
            return (0.0, 0.0)
        return (self.marks[0].at, self.marks[1].at)

    def inside(self, at: float) -> bool:
        """Whether a moment falls in the restart window."""
        start, end = self.window()
        return start <= at <= end


# --- nginx in front (BENCH_WEB_PROXY=nginx) --------------------------------------------------


@contextmanager
def proxied(site: Site, proxy: str) -> Iterator[list[str] | None]:
    """nginx with deploy/nginx.conf in front of the site's processes for the block (its URL), or
    nothing in front (None)."""
    if not proxy:
        yield None
        return
    if proxy != "nginx":
        raise SystemExit(f"Unknown proxy {proxy!r}: use nginx (or leave BENCH_WEB_PROXY empty).")
    with nginx.in_front(site.ports, site.folder / "nginx") as url:
        yield [url]


def nginx_counts(site: Site) -> tuple[Counter[str], Counter[str]]:
    """nginx's answers of 500 and over (socket handshakes apart) and its logged errors."""
    folder = site.folder / "nginx" / "logs"
    answers: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    access = folder / "access.log"
    if access.exists():
        for line in access.read_text(errors="replace").splitlines():
            found = ACCESS_STATUS.search(line)
            if found is None or int(found.group("status")) < 500:
                continue
            what = "socket handshake" if found.group("path").startswith("/ws/") else "request"
            answers[f"{what} {found.group('status')}"] += 1
    error = folder / "error.log"
    if error.exists():
        for line in error.read_text(errors="replace").splitlines():
            found = NGINX_ERROR.search(line)
            if found is not None:
                errors[found.group(1)] += 1
    return answers, errors


# --- the report ------------------------------------------------------------------------------


def spread(seconds: list[float]) -> str:
    """p50/p95/p99/max of seconds, in ms, and how many."""
    ms = [1000 * s for s in seconds]
    if not ms:
        return "none"
    return (
        f"p50 {percentile(ms, 50):.0f}  p95 {percentile(ms, 95):.0f}  p99 {percentile(ms, 99):.0f}"
        f"  max {max(ms):.0f} ms ({len(ms)})"
    )


def closes_by_kind(closes: Counter[int]) -> Counter[str]:
    """Closes by what the page makes of them: restart (3012), dropped (1006, none), other."""
    kinds: Counter[str] = Counter()
    for code, n in closes.items():
        if code == SERVICE_RESTART:
            kinds["3012"] += n
        elif code in {ABNORMAL, 0}:
            kinds["1006/none"] += n
        else:
            kinds[f"other ({code})"] += n
    return kinds


def failures(errors: Counter[str], prefix: str) -> int:
    """How many errors of a kind (their keys start with `prefix`)."""
    return sum(n for k, n in errors.items() if k.startswith(prefix))


def refusals(errors: Counter[str], refused: Counter[int | str]) -> int:
    """Moves and taps refused: a refusal on the socket, a 400/409, a 5xx or a failed post."""
    failed = failures(errors, "post: ") + failures(errors, "HTTP ")
    return sum(refused.values()) + failed


@dataclass
class Span:
    """The counts of one stretch of the run."""

    errors: Counter[str]
    refused: Counter[int | str]
    closes: Counter[int]
    crossed: int
    accepted: int


def spans(tally: Tally, rolling: Rolling) -> tuple[Span, Span, Span]:
    """The counts in the restart window, outside it, and over the whole run."""
    whole = Span(
        Counter(tally.errors),
        Counter(tally.refused),
        Counter(tally.closes),
        sum(tally.crossed.values()),
        sum(tally.accepted.values()),
    )
    if len(rolling.marks) < 2:
        return Span(Counter(), Counter(), Counter(), 0, 0), whole, whole
    a, b = rolling.marks
    inside = Span(
        b.errors - a.errors,
        b.refused - a.refused,
        b.closes - a.closes,
        b.crossed - a.crossed,
        b.accepted - a.accepted,
    )
    outside = Span(
        whole.errors - inside.errors,
        whole.refused - inside.refused,
        whole.closes - inside.closes,
        whole.crossed - inside.crossed,
        whole.accepted - inside.accepted,
    )
    return inside, outside, whole


def rows(span: Span) -> dict[str, str]:
    """One column of the report's table."""
    kinds = closes_by_kind(span.closes)
    others = sum(n for k, n in kinds.items() if k.startswith("other"))
    return {
        "moves made (answered, or posted)": str(span.accepted),
        "moves crossed by a 3012 (the new board answered)": str(span.crossed),
        "moves unanswered": str(failures(span.errors, "socket move unanswered")),
        "moves and taps refused or failed": str(refusals(span.errors, span.refused)),
        "sockets closed 3012": str(kinds["3012"]),
        "sockets closed 1006 (no close frame)": str(kinds["1006/none"]),
        "sockets closed otherwise": str(others),
        "reconnects failed": str(failures(span.errors, "socket connect: ")),
        "screens not updated in time": str(span.errors["screen not updated in time"]),
    }


def logged_since(rolling: Rolling) -> list[str]:
    """The lines the Daphne processes logged in this run."""
    lines = []
    for log in sorted(rolling.site.folder.glob("daphne-*.log")):
        with log.open("rb") as text:
            text.seek(rolling.logged.get(str(log), 0))
            lines += text.read().decode(errors="replace").splitlines()
    return lines


def having(lines: list[str], *needles: str) -> list[str]:
    """The lines holding any of these words."""
    return [line.strip() for line in lines if any(n in line for n in needles)]


def report(
    site: Site,
    game: str,
    count: int,
    tally: Tally,
    rolling: Rolling,
    cfg: Any,
    front: list[str] | None,
) -> None:
    """Print the restart run's figures."""
    start, end = rolling.window()
    clock = rolling.clock
    way = "through nginx (deploy/nginx.conf)" if front else "straight to the processes"
    print(
        f"-- restart: {game}, {count} tables, {site.label}, {way}, moves {MOVES},"
        f" {cfg.seconds:.0f} s (seated in {tally.seated_in:.0f} s)"
    )
    bound = processes.drain_seconds() + processes.EXIT_MARGIN
    for roll in rolling.rolls:
        killed = " (not exited by then: killed)" if roll.drained >= bound else ""
        print(
            f"   process {roll.process}: rolled from {roll.began - clock:.1f} s; the new one served"
            f" after {roll.serving - roll.began:.1f} s, the old one exited"
            f" {roll.drained:.1f} s after its SIGTERM{killed}"
        )
    if end:
        print(f"   restart window: {start - clock:.1f}-{end - clock:.1f} s of the clock")
    if end and end - clock > cfg.seconds:
        print("   (the window outlasted the load: set BENCH_WEB_ROLL_AT or BENCH_WEB_SECONDS)")
    inside, outside, whole = spans(tally, rolling)
    columns = [rows(inside), rows(outside), rows(whole)]
    print(f"   {'':50} {'restart':>9} {'outside':>9} {'all':>9}")
    for name in columns[0]:
        print(f"   {name:50} " + " ".join(f"{c[name]:>9}" for c in columns))
    for base in sorted({b for _, _, b in tally.closed}):
        codes = Counter(code for _, code, b in tally.closed if b == base)
        times = [at - clock for at, _, b in tally.closed if b == base]
        print(
            f"   closes of the sockets on {base}: {dict(codes)}"
            f" at {min(times):.1f}-{max(times):.1f} s of the clock"
        )
    backs_in = [s for at, s in tally.backs if rolling.inside(at)]
    backs_out = [s for at, s in tally.backs if not rolling.inside(at)]
    print(f"   back within (close to new board), restart: {spread(backs_in)}")
    print_backs_by_second(tally.backs, rolling, clock)
    shakes = [s for at, s in tally.handshakes if rolling.inside(at)]
    print(f"   a reopened socket's handshake, restart:       {spread(shakes)}")
    if backs_out:
        print(f"   back within, outside the restart: {spread(backs_out)}")
    moved = list(zip(tally.latencies, tally.sent_at, strict=True))
    print(
        "   move to every screen, sent in the restart: "
        + spread([s for s, at in moved if rolling.inside(at)])
    )
    print(
        "   move to every screen, outside it:         "
        + spread([s for s, at in moved if not rolling.inside(at)])
    )
    print("   move to every screen, all:                " + spread(tally.latencies))
    stored = sites.people_moves(site, tally.games)
    counted = tally.accepted + tally.crossed
    lost = sum(max(0, n - stored.get(g, 0)) for g, n in counted.items())
    extra = sum(max(0, n - counted.get(g, 0)) for g, n in stored.items())
    print(
        f"   moves counted (made + crossed) but not stored: {lost};"
        f"  stored but not counted: {extra};  stale sockets {tally.stale};"
        f"  gap resyncs {tally.resyncs}"
    )
    errors = {k: n for k, n in tally.errors.items() if k != "socket closed"}
    print(f"   every error seen: {errors or 'none'};  refused {dict(tally.refused) or 'none'}")
    logged = logged_since(rolling)
    errors_logged = sum(1 for line in logged if line.startswith(sites.ERROR_LINES))
    tracebacks = len(having(logged, "Traceback"))
    print(f"   server errors logged {errors_logged}, tracebacks {tracebacks}")
    for line in having(logged, "Draining:", "Drained in", "The database is back"):
        print(f"   log: {line}")
    cut = len(having(logged, "took too long to shut down"))
    away = len(having(logged, "The database went away"))
    print(
        f"   log: {cut} application instances killed by Daphne for not ending (10 s after"
        f" their socket closed); the database away {away} times"
    )
    if front:
        answers, nginx_errors = nginx_counts(site)
        print(f"   nginx answered 5xx: {dict(answers) or 'none'}")
        print(f"   nginx errors logged: {dict(nginx_errors) or 'none'}")
    lags = list(zip(tally.lags, tally.lag_at, strict=True))
    print(
        "   load generator's own loop lag (a floor under every time above), restart: "
        + spread([lag for lag, at in lags if rolling.inside(at)])
    )
    print(
        "   the same outside the restart: "
        + spread([lag for lag, at in lags if not rolling.inside(at)])
    )
