"""What the API's open game streams cost their process apart from their openings (issue 49).

In-process, on a throwaway database (bench/_site_setup.py): `BENCH_STREAM_LOOKS_STREAMS` (100,
one Daphne process's share of bench-web's 200) bot accounts with a token each, watching
`BENCH_STREAM_LOOKS_TABLES` (25) running four-seat Midnight Bakery tables of people, each as
its stream holds it (games.api.game_stream.GameFeed, its row admitted, its token told to the
process's watch as its opening does). Then, with the same calls the process's watcher and the
streams make (games/live/stream_watch.look; GameFeed.heard on each table's new version, then
the line's bytes):

- the watcher's looks: the first after the openings, one a period later, and one three periods
  later (a busy process's watcher comes late): queries and CPU of each (the renewal and the heal
  included, as every `RENEW_SECONDS` and `STREAM_HEAL_SECONDS`);
- `BENCH_STREAM_LOOKS_MOVES` (40) moves, one table after another: each stream of the moved
  table told the new version, its line made and encoded; queries and CPU a move of all its
  streams' lines (the table's own read, which its sockets share, included).

CPU is time.process_time (other processes do not count): medians of `BENCH_STREAM_LOOKS_RUNS`
(3) runs. Nothing is asserted.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench._site_setup import django_on_a_throwaway_database, human_move, person, started_table

STREAMS = int(os.environ.get("BENCH_STREAM_LOOKS_STREAMS", "100"))
TABLES = int(os.environ.get("BENCH_STREAM_LOOKS_TABLES", "25"))
MOVES = int(os.environ.get("BENCH_STREAM_LOOKS_MOVES", "40"))
RUNS = int(os.environ.get("BENCH_STREAM_LOOKS_RUNS", "3"))


class Opened:
    """One open stream as the process's watcher sees it (stream_watch.Watched)."""

    def __init__(self, row: str, recheck: Callable[[], str], feed: Any) -> None:
        self.row, self.recheck, self.feed = row, recheck, feed

    def tell(self, message: dict[str, object]) -> None:
        """What the watcher tells it (a beat, an end): not read here."""


@contextmanager
def counted() -> Iterator[list[float]]:
    """[queries, CPU seconds] of the block."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    said = [0.0, 0.0]
    with CaptureQueriesContext(connection) as queries:
        began = time.process_time()
        yield said
        said[1] = time.process_time() - began
    said[0] = len(queries)


def one_run(run: int) -> dict[str, tuple[float, float]]:
    """Open the streams, look three times, play the moves: each figure's (queries, CPU s)."""
    from django.conf import settings

    from accounts import tokens
    from games import services
    from games.api.game_stream import GameFeed
    from games.api.streams import WATCH, token_still
    from games.live import stream_watch, streams

    tables = [started_table("midnight-bakery", 4, 4, 100 * run + t) for t in range(TABLES)]
    opened: list[Opened] = []
    by_table: dict[int, list[Any]] = {}
    for n in range(STREAMS):
        bot = person(f"looker-{run}-{n}")
        bot.plays_by_api = True
        bot.save(update_fields=["plays_by_api"])
        token = tokens.make(bot.pk, "bench", ["account:read", "games:play"], None).row
        game_id = tables[n % TABLES].game_id
        feed = GameFeed(bot, game_id, chat=False)
        feed.first()
        row = streams.admit(token.label, None, game_id=game_id, user_id=bot.pk).channel
        opened.append(Opened(row, token_still(token.label), feed))
        by_table.setdefault(game_id, []).append(feed)
    figures: dict[str, tuple[float, float]] = {}
    period = settings.STREAM_RECHECK_SECONDS
    for name, late in (("first look", 0.0), ("a period on", 1.0), ("three periods on", 3.0)):
        WATCH.read_at -= late * period  # as if that long had passed since the read
        WATCH.asked = {t: when - late * period for t, when in WATCH.asked.items()}
        with counted() as said:
            stream_watch.look(opened, renew=True, heal=True)
        figures[name] = (said[0], said[1])
    rng = random.Random(run)
    lines: list[list[float]] = []
    for m in range(MOVES):
        table = tables[m % TABLES]
        move = human_move(table, rng)
        if move is None:
            continue
        user, action, version, _ = move
        services.play(table.game_id, user, action, version)
        with counted() as said:
            for feed in by_table.get(table.game_id, []):
                for line in feed.heard({"type": "game.updated", "version": version + 1}):
                    streams.encoded(line)
        lines.append(said)
    figures["a move's lines"] = (
        statistics.mean(q for q, _ in lines),
        statistics.mean(c for _, c in lines),
    )
    WATCH.asked, WATCH.said = {}, {}
    return figures


def main() -> None:
    """Print the figures."""
    with django_on_a_throwaway_database() as label:
        runs = [one_run(run) for run in range(RUNS)]
        print(
            f"   {label}; {STREAMS} game streams of bot accounts on {TABLES} tables"
            f" ({STREAMS / TABLES:.0f} a table), {RUNS} runs, medians"
        )
        for name in runs[0]:
            queries = statistics.median(run[name][0] for run in runs)
            cpu = statistics.median(run[name][1] for run in runs) * 1000
            print(f"   {name:18}: {queries:6.1f} queries, CPU {cpu:7.2f} ms")


if __name__ == "__main__":
    main()
