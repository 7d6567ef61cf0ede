"""A token-authenticated GET of the API alone: a table and a profile (issue 49's budget, p95 under
30 ms on a quiet machine, is for these).

In-process, on a throwaway database (bench/_site_setup.py): a running four-seat Midnight Bakery
table of people and a token of one of them; then `BENCH_API_GETS` (200) requests of each, `GET
/api/games/{id}` and `GET /api/people/{name}`, through the whole Django stack (middleware, the
token, its limits, the operation, its JSON) with Django's test client, one kind after the other
in turn. Prints for each: the wall time's p50 and p95, the median CPU (time.process_time: other
processes do not count), and the queries a request. `BENCH_API_PROFILE=1` prints the functions
that took the most of them (cProfile, cumulative). Nothing is asserted.

The server's own share only: no Daphne, no network, no TLS. bench-web's
`BENCH_WEB_STREAMS=0,200` times the same GETs over HTTP beside busy tables.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import statistics
import time
from typing import Any

from bench._site_setup import django_on_a_throwaway_database, started_table

GETS = int(os.environ.get("BENCH_API_GETS", "200"))
PROFILE = os.environ.get("BENCH_API_PROFILE", "") == "1"


def percentile(values: list[float], at: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * at / 100))]


def asked(client: Any, path: str, headers: dict[str, str]) -> tuple[float, float, int]:
    """One GET: its wall and CPU seconds and its queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        wall, cpu = time.perf_counter(), time.process_time()
        answer = client.get(path, headers=headers)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert answer.status_code == 200, answer.content
    return wall, cpu, len(queries)


def main() -> None:
    """Print each GET's figures."""
    with django_on_a_throwaway_database() as label:
        from django.conf import settings
        from django.test import Client

        from accounts import tokens
        from accounts.models import User

        settings.API_CLIENT_REQUESTS_PER_MINUTE = settings.API_TOKEN_REQUESTS_PER_MINUTE = 10**6
        table = started_table("midnight-bakery", 4, 4, 7)
        me = User.objects.get(pk=next(iter(table.humans.values())).pk)
        token = tokens.make(me.pk, "bench", list(tokens.SCOPES), None).token
        headers = {"Authorization": f"Bearer {token}"}
        paths = {"game": f"/api/games/{table.game_id}", "profile": f"/api/people/{me.username}"}
        client = Client()
        for path in paths.values():  # the first of each compiles and imports what it needs
            asked(client, path, headers)
        figures: dict[str, list[tuple[float, float, int]]] = {what: [] for what in paths}
        profiler = cProfile.Profile(time.process_time)  # CPU, not the waits
        for _ in range(GETS):
            for what, path in paths.items():
                if PROFILE:
                    profiler.enable()
                figures[what].append(asked(client, path, headers))
                if PROFILE:
                    profiler.disable()
        print(f"   {label}; {GETS} GETs of each, in turn, through Django's test client")
        for what, rows in figures.items():
            walls = [row[0] * 1000 for row in rows]
            cpu = statistics.median(row[1] for row in rows) * 1000
            queries = statistics.median(row[2] for row in rows)
            print(
                f"   GET {what:8}: p50 {percentile(walls, 50):5.2f} ms, p95"
                f" {percentile(walls, 95):5.2f} ms; CPU median {cpu:5.2f} ms; {queries:.0f} queries"
            )
        if PROFILE:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
