"""Reviews asked for beside the tables (issue 48): `BENCH_WEB_REVIEWS` finished games, one seat
of each reviewed, all asked for at once as the tables' clock starts.

Run as `python -m bench.web.reviews K GAME URL[,URL...]` with the site's environment (its
database): it plays K games of GAME between greedy bots (4 bakers of Midnight Bakery, 2 of
Cakehalla, the sizes of the review's budgets) and makes K people, each with a session, then says
"ready". On the line "go" (the clock's start) each person, from a thread of its own, opens the
review page of the first seat of their game and posts its ask form, all at one instant, as people
without script do; then polls the page's progress part every POLL seconds, as the page does. The
site works them as it works any review: the Review rows are its queue, each process's lane takes
one at a time, its weighing in the process's thinking pool under the same cap as the master bots
(games/reviews/lane.py, games/thinking.py). On SIGTERM it prints one JSON object: each review's
answer to its ask, the seconds from the ask to its being done (its row's finished_at), and the
decisions weighed of the whole for those not done yet.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import httpx

from bench.web.client import percentile
from bench.web.site import ROOT, Site

PLAYERS = {"midnight-bakery": 4, "cakehalla": 2}
POLL = 2.0  # the review page polls its progress part every 2 s (games/reviews/views.py)
TIMEOUT = 30.0
TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')  # the page's <body hx-headers>

STOPPED = threading.Event()


def stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM: the pages stop polling and the figures are printed."""
    STOPPED.set()


def finished_games(kind: str, count: int) -> list[int]:
    """`count` games of `kind` played out between greedy bots: their ids."""
    from games.management.commands.simulate import simulate_one

    return [int(simulate_one(kind, PLAYERS[kind], ["greedy"]).pk) for _ in range(count)]


def ask_and_watch(url: str, session: str, game: int, gate: threading.Barrier) -> dict[str, Any]:
    """One person: the review page, its ask posted at the gate's instant, then its progress part
    polled until the review is whole (the part stops asking to be polled) or the run ends."""
    page = f"/games/{game}/review/0/"
    seen: dict[str, Any] = {"game": game, "status": 0, "done_seen": None}
    with httpx.Client(base_url=url, timeout=TIMEOUT, cookies={"sessionid": session}) as http:
        opened = http.get(page)
        token = TOKEN.search(opened.text)
        gate.wait()
        seen["asked_at"] = time.time()
        sent = time.perf_counter()
        answer = http.post(page + "ask/", headers={"X-CSRFToken": token.group(1) if token else ""})
        seen["status"], seen["answered"] = answer.status_code, time.perf_counter() - sent
        while not STOPPED.wait(POLL):
            part = http.get(page, headers={"HX-Request": "true"})
            if part.status_code == 200 and "hx-trigger" not in part.text:
                seen["done_seen"] = time.perf_counter() - sent
                break
    return seen


def figures(seen: list[dict[str, Any]]) -> dict[str, Any]:
    """What the asks and the reviews came to, from the people's answers and the Review rows."""
    from games.reviews.models import Review

    rows = {r.game_id: r for r in Review.objects.filter(game_id__in=[s["game"] for s in seen])}
    reviews = []
    for each in seen:
        row = rows.get(each["game"])
        finished = row.finished_at.timestamp() if row and row.finished_at else None
        reviews.append(
            {
                "status": row.status if row else "not asked",
                "done": row.done if row else 0,
                "total": row.total if row else 0,
                "seconds": finished - each["asked_at"] if finished and "asked_at" in each else None,
                "seen": each["done_seen"],
            }
        )
    answers = [1000 * s["answered"] for s in seen if "answered" in s]
    return {
        "reviews": reviews,
        "answers": sorted({str(s["status"]) for s in seen}),
        "answered_p50": percentile(answers, 50),
        "answered_p95": percentile(answers, 95),
    }


def main() -> None:
    """Make the games and the people, ask for every review at "go", print the figures."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
    import django

    django.setup()
    from bench.web.people import sessions_for

    signal.signal(signal.SIGTERM, stop)
    count, kind, urls = int(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
    games = finished_games(kind, count)
    names = [f"reviewer-{os.getpid()}-{i}" for i in range(count)]
    sessions = sessions_for(names)
    print("ready", flush=True)
    sys.stdin.readline()  # "go": the tables' clock started
    gate = threading.Barrier(count)
    seen: list[dict[str, Any]] = [{"game": g, "status": 0, "done_seen": None} for g in games]

    def person(i: int) -> None:
        try:
            seen[i] = ask_and_watch(urls[i % len(urls)], sessions[names[i]], games[i], gate)
        except (httpx.HTTPError, threading.BrokenBarrierError) as exc:
            seen[i]["status"] = type(exc).__name__

    threads = [threading.Thread(target=person, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    STOPPED.wait()
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    print(json.dumps(figures(seen)), flush=True)


@contextmanager
def beside(
    site: Site, count: int, kind: str
) -> Iterator[tuple[Callable[[], None], dict[str, Any]]]:
    """While the block runs, `count` reviews wait to be asked for; the block calls `go()` as its
    clock starts (none: nothing is started). Yields `go` and what came of them, filled in once
    the block is over. Enter it inside the running site (it needs the processes' URLs)."""
    done: dict[str, Any] = {}
    if not count:
        yield (lambda: None), done
        return
    keeper = subprocess.Popen(
        [sys.executable, "-m", "bench.web.reviews", str(count), kind, ",".join(site.urls)],
        cwd=ROOT,
        env=site.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert keeper.stdin is not None and keeper.stdout is not None
    stdin = keeper.stdin

    def go() -> None:
        stdin.write("go\n")
        stdin.flush()

    try:
        ready = keeper.stdout.readline()
        if ready.strip() != "ready":
            raise RuntimeError(f"the reviews' keeper did not start: {ready!r}")
        yield go, done
    finally:
        keeper.send_signal(signal.SIGTERM)
        out, _ = keeper.communicate(timeout=120)
        lines = [line for line in out.splitlines() if line.startswith("{")]
        done.update(json.loads(lines[-1]) if lines else {"failed": keeper.returncode})


def report(count: int, kind: str, done: dict[str, Any]) -> None:
    """The reviews' lines under the run's report."""
    if not count:
        return
    if "failed" in done:
        print(f"   beside: {count} reviews asked (the keeper failed: exit {done['failed']})")
        return
    reviews = done["reviews"]
    finished = sorted(r["seconds"] for r in reviews if r["status"] == "done" and r["seconds"])
    print(
        f"   beside: {count} reviews of a seat of {kind} ({PLAYERS[kind]} bakers) asked at once"
        f" as the clock started: asks answered p50 {done['answered_p50']:.0f} ms"
        f"  p95 {done['answered_p95']:.0f} ms (statuses {', '.join(done['answers'])});"
        f" {len(finished)} done within the run",
        flush=True,
    )
    if finished:
        print(
            "   each review's time from its ask to done: "
            + ", ".join(f"{s:.0f}" for s in finished)
            + " s",
            flush=True,
        )
    waiting = [r for r in reviews if r["status"] != "done"]
    if waiting:
        print(
            "   not done at the run's end: "
            + ", ".join(f"{r['status']} {r['done']} of {r['total']}" for r in waiting),
            flush=True,
        )


if __name__ == "__main__":
    main()
