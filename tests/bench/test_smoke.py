"""A short pass of every benchmark, so none can rot: each runs to its end at a tiny size.

Each bench runs as `make bench` and `make bench-web` run it, in a process of its own (the Django
benches set Django up on their own throwaway database). The figures are printed, never asserted:
a test only checks the bench ended well and printed its report with some work in it.
On the defaults (no DATABASE_URL) the in-process benches and bench-web's and the soak's SQLite
set-ups run; with DATABASE_URL and REDIS_URL their PostgreSQL + Redis set-ups run instead (CI's
second pass runs bench-web's tables alone there, the one marked `backend`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench import _prepared as prepared
from tests.support.prepared import files as prepared_files

ROOT = Path(__file__).resolve().parents[2]
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
in_process = pytest.mark.skipif(ON_POSTGRES, reason="run once, in the pass on the defaults")

# The sizes of the short pass, a few seconds each.
TINY = {
    "BENCH_API_GETS": "3",
    "BENCH_BOTS_TABLES": "1",
    "BENCH_BOTS_MOVES": "3",
    "BENCH_CAKEHALLA_RUNS": "1",
    "BENCH_CAKEHALLA_GAMES": "2",
    "BENCH_CAKEHALLA_DECISIONS": "2",
    "BENCH_CH_MASTER_GAMES": "2",
    "BENCH_CH_MASTER_SIZES": "2",
    "BENCH_CH_MASTER_SECONDS": "0.001",
    "BENCH_MIDNIGHT_RUNS": "1",
    "BENCH_MIDNIGHT_NIGHTS": "2",
    "BENCH_MB_MASTER_NIGHTS": "2",
    "BENCH_MB_MASTER_SECONDS": "0.005",
    "BENCH_PAIRING_RUNS": "1",
    "BENCH_PAIRING_PEOPLE": "20",
    "BENCH_PAIRING_TABLES": "2",
    "BENCH_PUSHES_RUNS": "1",
    "BENCH_PUSHES_MOVES": "4",
    "BENCH_HASHES_GAMES": "1",
    "BENCH_HASHES_MOVES": "3",
    "BENCH_REVIEWS_GAMES": "1",
    "BENCH_REVIEWS_SCALE": "0.01",
    "BENCH_SITE_RUNS": "1",
    "BENCH_SITE_RENDERS": "2",
    "BENCH_SITE_TABLES": "1",
    "BENCH_SITE_PACED_TABLES": "1",
    "BENCH_SITE_MOVES": "3",
    "BENCH_SITE_THINK_MS": "50",
    "BENCH_SITE_PLAYERS": "2",
    "BENCH_STATS_REAL": "1",
    "BENCH_STREAM_LOOKS_STREAMS": "8",
    "BENCH_STREAM_LOOKS_TABLES": "2",
    "BENCH_STREAM_LOOKS_MOVES": "4",
    "BENCH_STREAM_LOOKS_RUNS": "1",
    "BENCH_STATS_GAMES": "40",
    "BENCH_STATS_RUNS": "1",
    "BENCH_STATS_PERSON": "20",
    "BENCH_WEB_TABLES": "1",
    "BENCH_WEB_MASTERS": "1",
    "BENCH_WEB_SECONDS": "2",
    "BENCH_WEB_THINK": "0.3",
    "BENCH_WEB_STATS_FLUSH": "0",
    "BENCH_WEB_ARENA_PEOPLE": "8",
    "BENCH_WEB_ARENA_BESIDE": "1",
    "BENCH_WEB_SWISS_PEOPLE": "8",
    "BENCH_WEB_STANDINGS_ENTRANTS": "20",
    "BENCH_WEB_STANDINGS_GETS": "10",
    "BENCH_SOAK_PEOPLE": "2",
    "BENCH_SOAK_MINUTES": "0.6",  # each person's first round: one visit of each kind
    "BENCH_SOAK_SAMPLE": "4",
    "BENCH_SOAK_THINK": "0.1",
    "BENCH_TOURNEY_PEOPLE": "40",
    "BENCH_TOURNEY_RUNS": "1",
}


@pytest.fixture(autouse=True)
def _sites_prepared_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The benches' SQLite sites copy one migrated database and serve one collection of static
    files (bench/_prepared.py), made once a test process; on PostgreSQL (CI's second pass) they
    make their own."""
    if os.environ.get("DATABASE_URL"):
        return
    for name, value in prepared_files(tmp_path_factory.getbasetemp() / "prepared").items():
        monkeypatch.setenv(name, value)


def run_bench(module: str, **extra: str) -> str:
    """Run `python -m <module>` at the tiny sizes; its output, after checking it ended well."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_") or k in prepared.NAMES}
    env.update(TINY, **extra)
    done = subprocess.run(
        [sys.executable, "-m", module],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    print(done.stdout)
    assert done.returncode == 0, f"{module} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_every_bench_module_has_a_short_pass() -> None:
    """`make bench` runs these; a new one needs its tiny sizes and a test here."""
    from bench.__main__ import modules

    assert modules() == [
        "api_gets",
        "bots",
        "cakehalla",
        "cakehalla_master",
        "mb_master",
        "midnight_bakery",
        "pairing",
        "pushes",
        "reviews",
        "site",
        "stats",
        "stream_looks",
        "tournaments",
    ]


def counts(pattern: str, out: str) -> list[int]:
    """The numbers the pattern's group caught on every line of the output."""
    return [int(n.replace(",", "")) for n in re.findall(pattern, out)]


@in_process
def test_api_gets() -> None:
    out = run_bench("bench.api_gets")
    for what in ("game", "profile"):
        assert re.search(rf"GET {what} *: p50 +[\d.]+ ms, p95 +[\d.]+ ms; .* \d+ queries", out), out


@in_process
def test_stream_looks() -> None:
    out = run_bench("bench.stream_looks")
    for what in ("first look", "a period on", "three periods on", "a move's lines"):
        assert re.search(rf"{what} *: +[\d.]+ queries, CPU +[\d.]+ ms", out), out


@in_process
def test_bots() -> None:
    out = run_bench("bench.bots")
    moves = counts(r"\((\d+) moves\)", out)
    assert len(moves) == 2, out  # one table of each game
    assert all(n > 0 for n in moves), out


@in_process
def test_engines() -> None:
    out = run_bench("bench.cakehalla")
    assert counts(r"([\d,]+) decisions/s", out), out
    assert len(re.findall(r"cakehalla bot \w+, \d bakers: [\d.]+ ms per decision", out)) == 6
    out = run_bench("bench.midnight_bakery")
    assert all(n > 0 for n in counts(r"([\d,]+) decisions/s", out)), out
    assert len(counts(r"per decision \((\d+) decisions\)", out)) == 3, out


@in_process
def test_cakehalla_master() -> None:
    out = run_bench("bench.cakehalla_master")
    assert re.search(r"2 bakers, 2 games .*: master wins [\d.]+% \(95% CI [\d.]+%-[\d.]+%", out)
    assert re.search(r"master CPU a decision p50 [\d.]+ ms, p95 [\d.]+ ms", out), out


@in_process
def test_mb_master() -> None:
    out = run_bench("bench.mb_master")
    assert len(re.findall(r"wins [\d.]+% \(95% CI [\d.]+%-[\d.]+%\) of 2 seat-rotated", out)) == 2
    assert len(re.findall(r"master CPU a decision at \d bakers: p50 \d+ ms, p95", out)) == 2, out


@in_process
def test_pairing() -> None:
    out = run_bench("bench.pairing")
    assert len(re.findall(r"draw alone, 20 waiting .*: [\d.]+ ms CPU; \d+ tables", out)) == 2, out
    assert re.search(r"a pass in the database, 20 waiting, nobody can start yet: [\d.]+ ms", out)
    assert counts(r"a pass that seats (\d+) tables of two", out) == [2], out


@in_process
def test_pushes() -> None:
    out = run_bench("bench.pushes")
    assert len(re.findall(r"ms CPU a move for all pushes", out)) == 6, out  # 2 games, 3 ways


@in_process
def test_pushes_parts() -> None:
    out = run_bench("bench.pushes", BENCH_PUSHES_MODES="pieces", BENCH_PUSHES_PARTS="1")
    assert len(re.findall(r"the parts' own CPU, 4 moves counted", out)) == 2, out
    assert re.search(r"\(board context\) +5\.00 ", out), out  # 4 seats and a spectator a move


@in_process
def test_push_hashes() -> None:
    out = run_bench("bench.push_hashes")
    # Each kind: three viewers (two seats, a spectator), each sent two whole boards and 3 pushes.
    assert counts(r"languages en,fr,de: (\d+) texts", out) == [30], out
    assert re.search(r"sha256 [0-9a-f]{64}$", out.strip()), out


@in_process
def test_reviews() -> None:
    out = run_bench("bench.reviews")
    for kind, players in (("midnight-bakery", 4), ("cakehalla", 2)):
        line = rf"a review of one seat, {kind}, {players} bakers, \d+ iterations a decision: "
        assert re.search(line + r"[\d.]+ s CPU, [1-9]\d* decisions", out), out
        assert re.search(rf"{kind}, {players} bakers: median [\d.]+ s CPU a review", out), out


@in_process
def test_site() -> None:
    out = run_bench("bench.site")
    assert re.search(r"^Cakehalla, person vs greedy\s+[1-9]\d*\s", out, re.M), out  # plays
    assert re.search(r"^1\s+none\s+\d+\s+[1-9]\d*\s", out, re.M), out  # live moves
    assert "site bench took" in out


@in_process
def test_stats() -> None:
    out = run_bench("bench.stats")
    assert len(re.findall(r"/stats/[\w-]+/ [\d.]+ ms, \d+ queries", out)) == 2, out
    assert "profile of a person" in out


@in_process
def test_tournaments() -> None:
    out = run_bench("bench.tournaments")
    assert len(re.findall(r"Swiss round of 40 into tables of 4 \(\w+\): [\d.]+ ms CPU", out)) == 2
    assert re.search(r"arena re-seating of a finished table .*: [\d.]+ ms CPU median", out), out


def run_web(scenarios: str, **extra: str) -> str:
    """bench-web's scenarios on this pass's set-up: SQLite and one Daphne, or PostgreSQL, Redis
    and two."""
    if ON_POSTGRES:
        return run_bench(
            "bench.web",
            BENCH_WEB_SCENARIOS=scenarios,
            BENCH_WEB_SETUPS="postgres",
            BENCH_DATABASE_URL=os.environ["DATABASE_URL"],
            BENCH_REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            **extra,
        )
    return run_bench("bench.web", BENCH_WEB_SCENARIOS=scenarios, BENCH_WEB_SETUPS="sqlite", **extra)


BESIDE = {"BENCH_WEB_STREAMS": "4", "BENCH_WEB_LANGUAGES": "en,fr,de", "BENCH_WEB_SECONDS": "4"}
"""What test_web's tables have beside them on the defaults' pass."""


@pytest.mark.backend  # the production stack: PostgreSQL, Redis, two Daphne processes
def test_web() -> None:
    """A table of each game beside a table of master bots. On the defaults' pass, the same site
    also has its browsers say English, French and German (issue 50's tables of mixed languages,
    each socket pushing its person's words) and four game streams of bot accounts open
    (bench/web/streams.py: its moves' lines timed on them, and the token-authenticated GETs):
    one site for all of it. On PostgreSQL the tables alone (with the streams too, a run on a
    loaded machine outlasted the 150 s a bench has here)."""
    extra = {} if ON_POSTGRES else BESIDE
    out = run_web("tables", **extra)
    moves = counts(r"\((\d+) moves measured\)", out)
    assert len(moves) == 2, out  # one run of each game
    assert all(n > 0 for n in moves), out
    # A table of master bots thought beside each run (its moves may not have come yet: the
    # site's sweep finds a new table within BOT_SWEEP_SECONDS).
    assert counts(r"beside: 1 tables of four master bots at a time, (\d+) dealt", out) == [1, 1]
    if ON_POSTGRES:
        return
    for kind in ("midnight-bakery", "cakehalla"):
        assert re.search(rf"-- {kind}, 1 tables, .*, languages en,fr,de", out), out
    opened = counts(r"4 game streams of bot accounts \((\d+) open before the clock", out)
    assert opened == [4, 4], out
    assert "STREAMS NOT OPEN" not in out, out
    timed = counts(r"\((\d+) lines timed\)", out)
    assert len(timed) == 2 and all(n > 0 for n in timed), out
    assert len(counts(r"token-authenticated GET of a \w+: p50 (\d+) ms", out)) == 4, out


@pytest.mark.backend
@pytest.mark.skipif(not ON_POSTGRES, reason="two Daphne processes to roll: the PostgreSQL pass")
def test_web_restart() -> None:
    """A rolling restart of both processes under one table's load (bench/web/restart.py)."""
    out = run_bench(
        "bench.web",
        BENCH_WEB_SCENARIOS="restart",
        BENCH_WEB_GAMES="midnight-bakery",
        BENCH_WEB_SETUPS="postgres",
        BENCH_DATABASE_URL=os.environ["DATABASE_URL"],
        BENCH_REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
    )
    assert len(re.findall(r"(?m)^   process \d: rolled from [\d.]+ s", out)) == 2, out
    closed = counts(r"(?m)^   sockets closed 3012 +\d+ +\d+ +(\d+)$", out)
    assert closed and closed[0] > 0, out  # the table's sockets were closed and came back
    assert re.search(r"back within \(close to new board\), restart: p50 \d+", out), out


def test_web_tournaments() -> None:
    """The arena beside ordinary tables, a Swiss round's start, the standings page (measured
    once the site has tournament pages)."""
    from django.urls import NoReverseMatch, reverse

    out = run_web("arena,swiss,standings")
    arena = counts(r"(?m)^   (?:arena|ordinary) \(\d+ tables?\): .*\((\d+) moves measured\)", out)
    assert len(arena) == 2 and all(n > 0 for n in arena), out
    assert re.search(r"pages sent on and shown: 8 of 8", out), out
    assert re.search(r"every page on its new board, from the pairing: p50 \d+ ms", out), out
    try:
        reverse("tournaments:detail", args=[1])
    except NoReverseMatch:
        assert "skipped: this site has no tournament page" in out, out
    else:
        assert counts(r"answered: p50 \d+ ms .*\((\d+) answers", out) == [10], out


def test_soak() -> None:
    """The soak (make soak) on one Daphne: on SQLite, or on PostgreSQL and Redis on that pass.
    Every kind of visit its people make happened, without an error."""
    if ON_POSTGRES:
        out = run_bench(
            "bench.soak",
            BENCH_DATABASE_URL=os.environ["DATABASE_URL"],
            BENCH_REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        )
    else:
        out = run_bench("bench.soak", BENCH_SOAK_SETUP="sqlite")
    assert len(re.findall(r"^\s+[\d.]+ min  RSS\s+[\d.]+ MB", out, re.M)) >= 2, out  # sampled
    assert re.search(r"growth over the last half: [+-][\d.]+ MB", out), out
    visits = {
        kind: (int(n), int(errors), did)
        for kind, n, errors, did in re.findall(
            r"(?m)^   ([\w -]+): (\d+) visits, (\d+) errors; (.*)$", out
        )
    }
    kinds = ["quick games", "notifications", "friends", "tutorials", "turn-based"]
    assert sorted(visits) == sorted(kinds), out
    assert all(n >= 1 and errors == 0 for n, errors, _ in visits.values()), out
    for kind, done in [
        ("quick games", "started"),
        ("notifications", "inboxes read"),
        ("friends", "pages read"),
        ("tutorials", "steps followed"),
        ("turn-based", "made"),
    ]:
        found = counts(rf"\b{done} (\d+)", visits[kind][2])
        assert found and found[0] >= 1, out
    assert counts(r"server errors logged (\d+)", out) == [0], out
