"""The stats charts with a long history: what a game's end adds, what the pages cost.

On a throwaway database (bench._site_setup: temp SQLite, or BENCH_DATABASE_URL's test copy):
plays BENCH_STATS_REAL whole games of each kind between greedy bots through the services, then
stores BENCH_STATS_GAMES (100,000) more finished games as rows (games and seats, bulk inserted,
their scores and winners drawn like the real ones) and adds each one's facts (those of a real
game picked at random) to the charts' counters. It prints medians of BENCH_STATS_RUNS:

- the counting a game's end does (game_facts + one upsert), in its own transaction;
- GET /stats/<game>/ (from the counters) and its queries, with the history stored;
- for scale, the same score distribution and win rate by seat aggregated from the seat rows
  in the database (what the page would cost without the counters);
- GET /u/<name>/ of a person with BENCH_STATS_PERSON games (rating chart, per-game record).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter
from typing import Any

from bench._site_setup import django_on_a_throwaway_database

REAL = int(os.environ.get("BENCH_STATS_REAL", "12"))
GAMES = int(os.environ.get("BENCH_STATS_GAMES", "100000"))
RUNS = int(os.environ.get("BENCH_STATS_RUNS", "7"))
PERSON_GAMES = int(os.environ.get("BENCH_STATS_PERSON", "5000"))
BATCH = 5000


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def median_time(runs: int, fn: Any) -> tuple[float, Any]:
    """The median seconds of several calls, and the last call's answer."""
    times, answer = [], None
    for _ in range(runs):
        start = time.perf_counter()
        answer = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer


def real_games(kind: str) -> list[Any]:
    """Whole games between greedy bots (2 to 4 seats), through the services."""
    from games.management.commands.simulate import simulate_one

    return [simulate_one(kind, 2 + i % 3, ["greedy"]) for i in range(REAL)]


def facts_of(game: Any) -> Counter[tuple[str, str]]:
    from games.records import stats

    engine = game.spec.engine
    state = engine.load(game.snapshot)
    seats = {s.position: s for s in game.seats.all()}
    return stats.game_facts(game.kind, engine.view(state, None), engine.result(state), seats)


def store_history(kind: str, real: list[Any], count: int, people: list[Any]) -> None:
    """`count` finished games as rows, each a copy of a real game's seats, counted as it was."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game, Seat
    from games.records import stats

    rng = random.Random(kind)
    facts = [facts_of(g) for g in real]
    shapes = [[(s.position, s.score, s.winner, s.place) for s in g.seats.all()] for g in real]
    total: Counter[tuple[str, str]] = Counter()
    now = timezone.now()
    for start in range(0, count, BATCH):
        size = min(BATCH, count - start)
        picks = [rng.randrange(len(real)) for _ in range(size)]
        with transaction.atomic():
            games = Game.objects.bulk_create(
                Game(
                    kind=kind,
                    host=people[0],
                    capacity=len(shapes[p]),
                    status="over",
                    finished_at=now,
                )
                for p in picks
            )
            seats = []
            for game, p in zip(games, picks, strict=True):
                sitting = rng.sample(people, len(shapes[p]))
                for (position, score, winner, place), user in zip(shapes[p], sitting, strict=True):
                    seats.append(
                        Seat(
                            game=game,
                            user=user,
                            position=position,
                            score=score,
                            winner=winner,
                            place=place,
                        )
                    )
                total.update(facts[p])
            Seat.objects.bulk_create(seats)
    with transaction.atomic():
        stats.add_counts(kind, total)


def page(url: str) -> tuple[float, int]:
    """Median time of GET url and its query count."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    queries = len(captured)
    seconds, _ = median_time(RUNS, lambda: client.get(url))
    return seconds, queries


def aggregated_in_the_database(kind: str) -> Any:
    """The score distribution and win rate by seat straight from the seat rows (for scale)."""
    from django.db.models import Count, Q

    from games.models import Seat

    seats = Seat.objects.filter(game__kind=kind, game__status="over")
    scores = list(seats.values("score").annotate(n=Count("pk")))
    by_seat = list(
        seats.values("game__capacity", "position").annotate(
            n=Count("pk"), won=Count("pk", filter=Q(winner=True))
        )
    )
    return scores, by_seat


def main() -> None:
    with django_on_a_throwaway_database() as label:
        from django.db import transaction

        from accounts.models import RatingPoint, User
        from bench._site_setup import person
        from games.records import stats

        print(f"database: {label}; {REAL} real games and {GAMES:,} stored games of each kind")
        people = [person(f"regular{i}") for i in range(200)]
        for kind in ("midnight-bakery", "cakehalla"):
            real = real_games(kind)
            times = []
            for game in real:
                facts = facts_of(game)
                with transaction.atomic():  # as inside the game's end; its commit not timed
                    start = time.perf_counter()
                    stats.add_counts(kind, facts)
                    times.append(time.perf_counter() - start)
            facts_time, _ = median_time(RUNS, lambda game=real[0]: facts_of(game))
            start = time.perf_counter()
            store_history(kind, real, GAMES, people)
            stored = time.perf_counter() - start
            seconds, queries = page(f"/stats/{kind}/")
            db_seconds, _ = median_time(RUNS, lambda kind=kind: aggregated_in_the_database(kind))
            print(
                f"{kind}: a game's end adds its counters in {ms(statistics.median(times))} "
                f"(one upsert, before the commit; reading its facts from the final state "
                f"{ms(facts_time)}); "
                f"/stats/{kind}/ {ms(seconds)}, {queries} queries; the same two charts "
                f"aggregated from the seat rows {ms(db_seconds)} (stored in {stored:.0f} s)"
            )
        regular = people[0]
        from accounts.ratings import new_rating

        rating = new_rating(regular.pk, "midnight-bakery")
        rating.games = PERSON_GAMES
        rating.save()
        now = time.time()
        from datetime import UTC, datetime

        RatingPoint.objects.bulk_create(
            RatingPoint(
                user=regular,
                kind="midnight-bakery",
                game_id=i,
                rating=1500 + i % 90,
                at=datetime.fromtimestamp(now - PERSON_GAMES + i, tz=UTC),
            )
            for i in range(PERSON_GAMES)
        )
        played = regular.seats.count()
        rated = User.objects.get(pk=regular.pk)
        seconds, queries = page(f"/u/{rated.username}/")
        print(
            f"profile of a person with {played:,} seats and {PERSON_GAMES:,} rating points: "
            f"{ms(seconds)}, {queries} queries"
        )


if __name__ == "__main__":
    main()
