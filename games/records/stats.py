"""The stats pages: site totals (a handful of aggregate queries), and each game's charts.

A game's charts read counters (StatCount) that every game's end moves in the transaction that
writes its results, so /stats/<game>/ costs one small query however many games were played.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TypedDict

from django.db import connection, transaction
from django.db.models import Count, Prefetch, Q
from django.utils import timezone

from accounts.models import User
from games import catalog, charts
from games.kinds.base import AnyKind, Facts
from games.models import Action, Game, Seat, StatCount, house_tables, is_house_table
from games.records import archive

ACTIVE_DAYS = 7
TOP_ACTIVE = 10


class KindCount(TypedDict):
    """A game's line on the stats page: finished games and games running now."""

    spec: AnyKind
    finished: int
    running: int


def games_by_kind() -> list[KindCount]:
    """Per game: finished games and games running now."""
    counts = {
        row["kind"]: row
        for row in Game.objects.filter(guided=False)
        .exclude(house_tables())
        .values("kind")
        .annotate(
            finished=Count("pk", filter=Q(status=Game.Status.OVER)),
            running=Count("pk", filter=Q(status=Game.Status.RUNNING)),
        )
    }
    return [
        {
            "spec": spec,
            "finished": counts.get(spec.slug, {}).get("finished", 0),
            "running": counts.get(spec.slug, {}).get("running", 0),
        }
        for spec in catalog.available()
    ]


def most_active(days: int = ACTIVE_DAYS, top: int = TOP_ACTIVE) -> list[dict[str, object]]:
    """The people who finished the most games in the last days (bots and bot accounts left
    out)."""
    since = timezone.now() - timedelta(days=days)
    return list(
        Seat.objects.filter(
            game__status=Game.Status.OVER,
            game__finished_at__gte=since,
            game__guided=False,
            user__is_bot=False,
            user__plays_by_api=False,
        )
        .values("user__username")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(winner=True)))
        .order_by("-played", "-won", "user__username")[:top]
    )


def totals() -> dict[str, object]:
    """Everything the stats page shows."""
    kinds = games_by_kind()
    return {
        "kinds": kinds,
        "finished": sum(k["finished"] for k in kinds),
        "running": sum(k["running"] for k in kinds),
        "people": User.objects.filter(is_bot=False, plays_by_api=False).count(),
        "bots": User.objects.filter(is_bot=True).count(),  # the house's (bot accounts: neither)
        "active": most_active(),
        "active_days": ACTIVE_DAYS,
    }


# --- /stats/<game>/: counters moved in the transaction that ends each game ------------------


def common_facts(view: Mapping[str, object], seats: Mapping[int, Seat]) -> Facts:
    """Every game's facts: its size, each seat's score, and who won from which seat.

    Seat 0 acts first and positions are drawn at random at the start, so a seat's win rate is
    that of a turn position.
    """
    facts: Facts = Counter()
    players = len(seats)
    facts["games", str(players)] += 1
    for position, seat in seats.items():
        facts["scores", str(seat.score)] += 1
        turn = position + 1
        facts["seat_games", f"{players}:{turn}"] += 1
        if seat.winner:
            facts["seat_wins", f"{players}:{turn}"] += 1
    return facts


def game_facts(
    kind: str, view: Mapping[str, object], result: Mapping[str, object], seats: Mapping[int, Seat]
) -> Facts:
    """What one finished game adds to its kind's charts (from the spectator's final view)."""
    facts = common_facts(view, seats)
    facts.update(catalog.get(kind).stat_facts(view, result))
    return facts


def add_counts(kind: str, facts: Facts) -> None:
    """Add the facts to the counters in one upsert (rows in one order: no deadlock)."""
    rows = sorted((chart, key[:40], n) for (chart, key), n in facts.items() if n)
    if not rows:
        return
    q = connection.ops.quote_name
    table = q(StatCount._meta.db_table)
    columns = ", ".join(q(c) for c in ("kind", "chart", "key", "count"))
    values = ", ".join(["(%s, %s, %s, %s)"] * len(rows))
    sql = (
        f"INSERT INTO {table} ({columns}) VALUES {values} "
        f"ON CONFLICT ({q('kind')}, {q('chart')}, {q('key')}) "
        f"DO UPDATE SET {q('count')} = {table}.{q('count')} + excluded.{q('count')}"
    )
    params = [p for chart, key, n in rows for p in (kind, chart, key, n)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def count_finished(
    game: Game, view: Mapping[str, object], result: Mapping[str, object], seats: Mapping[int, Seat]
) -> None:
    """Move the charts' counters for a game that just ended (call inside its transaction); a
    tutorial or a house table counts nowhere."""
    if game.guided or is_house_table(game, seats.values()):
        return
    add_counts(game.kind, game_facts(game.kind, view, result, seats))


@dataclass
class Recount:
    """What a recount did: how many games it counted, and the games it could not (id, why)."""

    counted: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)


@transaction.atomic
def recount(kind: str | None = None) -> Recount:
    """Recompute every counter from the finished games, each rebuilt from its setup and actions
    under the rules it was played by (games/records/archive.py); a game today's engine cannot
    rebuild (another rules version, a game no longer offered) is skipped and reported, not
    miscounted."""
    counters = StatCount.objects.all()
    games = Game.objects.filter(status=Game.Status.OVER, guided=False)
    games = games.exclude(house_tables())
    if kind is not None:
        counters = counters.filter(kind=kind)
        games = games.filter(kind=kind)
    counters.delete()
    done = Recount()
    games = games.order_by("pk").prefetch_related(
        "seats__user", Prefetch("actions", queryset=Action.objects.order_by("seq"))
    )
    for game in games.iterator(chunk_size=100):
        try:
            state = archive.final_state(game)
        except archive.CannotRebuild as exc:
            done.skipped.append((game.pk, str(exc)))
            continue
        engine = game.spec.engine
        seats = {s.position: s for s in game.seats.all() if s.position is not None}
        count_finished(game, engine.view(state, None), engine.result(state), seats)
        done.counted += 1
    return done


def game_charts(kind: str) -> dict[str, object]:
    """Everything /stats/<game>/ draws, from the counters in one query."""
    spec = catalog.get(kind)
    counts: dict[str, dict[str, int]] = defaultdict(dict)
    for chart, key, n in StatCount.objects.filter(kind=kind).values_list("chart", "key", "count"):
        counts[chart][key] = n
    games = sum(counts["games"].values())
    scores = {int(k): n for k, n in counts["scores"].items()}
    seat_rates = []
    for players in sorted(int(p) for p in counts["games"]):
        rows = []
        for turn in range(1, players + 1):
            key = f"{players}:{turn}"
            played, won = counts["seat_games"].get(key, 0), counts["seat_wins"].get(key, 0)
            rate = charts.percent(won, played)
            rows.append((spec.seat_label(turn), rate, f"{rate:.0f}% of {played}"))
        seat_rates.append(
            {
                "players": players,
                "id": f"chart-seats-{players}",
                "games": counts["games"][str(players)],
                "bars": charts.hbars(rows, scale_to=100),
            }
        )
    return {
        "games": games,
        "scores": charts.columns(charts.bins(scores)) if scores else None,
        "score_count": sum(scores.values()),
        "average": sum(v * n for v, n in scores.items()) / sum(scores.values()) if scores else None,
        "seat_rates": seat_rates,
        "own": spec.stat_charts(counts),
    }
