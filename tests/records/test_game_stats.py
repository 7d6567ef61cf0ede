"""Charts: /stats/<game>/ from counters moved as games end; a profile's per-game record."""

from __future__ import annotations

import io
import random
from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import RatingPoint, User
from games import catalog, charts
from games.engines import midnight_bakery as night
from games.kinds.base import ordinal
from games.models import Game, Seat, StatCount
from games.records import stats
from tests.engines.midnight_bakery.helpers import crafted
from tests.support.finished_games import finished_game

# backend: its aggregates and percentiles are SQL each database computes.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def counters(kind: str) -> dict[tuple[str, str], int]:
    return {
        (c, k): n
        for c, k, n in StatCount.objects.filter(kind=kind).values_list("chart", "key", "count")
    }


def queries(url: str) -> tuple[int, str]:
    client = Client()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured), response.content.decode()


def test_each_finished_game_moves_the_counters_as_its_seats_say(player: User, rival: User) -> None:
    games = [finished_game([player, rival], bots=0), finished_game([player, rival], bots=1)]
    games.append(finished_game([player, rival], kind="cakehalla"))
    for kind in ("midnight-bakery", "cakehalla"):
        seats = Seat.objects.filter(game__kind=kind)
        got = counters(kind)
        scores = Counter(str(s.score) for s in seats)
        assert {k: n for (c, k), n in got.items() if c == "scores"} == scores
        assert sum(n for (c, _), n in got.items() if c == "seat_games") == seats.count()
        winners = seats.filter(winner=True).count()
        assert sum(n for (c, _), n in got.items() if c == "seat_wins") == winners
        assert sum(n for (c, _), n in got.items() if c == "games") == len(
            [g for g in games if g.kind == kind]
        )
    mb = counters("midnight-bakery")
    assert mb["owl", "nights"] == 1  # only the night of two bakers has an owl
    assert sum(n for (c, _), n in mb.items() if c == "kept") > 0
    ck = counters("cakehalla")
    bought = sum(n for (c, _), n in ck.items() if c == "bought")
    breakdowns = [s.breakdown or {} for s in Seat.objects.filter(game=games[2])]
    assert bought == sum(b["cards_bought"] for b in breakdowns)


def test_recounting_the_finished_games_gives_the_same_counters(player: User, rival: User) -> None:
    finished_game([player, rival], bots=0)
    finished_game([player, rival], kind="cakehalla")
    live = {kind: counters(kind) for kind in ("midnight-bakery", "cakehalla")}
    StatCount.objects.all().delete()
    assert stats.recount() == stats.Recount(counted=2, skipped=[])
    assert {kind: counters(kind) for kind in live} == live


def test_restat_rebuilds_each_game_from_its_setup_and_actions_not_its_snapshot(
    player: User, rival: User
) -> None:
    game = finished_game([player, rival], bots=0)
    live = counters("midnight-bakery")
    Game.objects.filter(pk=game.pk).update(snapshot={})  # today's engine could not load it
    out = io.StringIO()
    call_command("restat", stdout=out)
    assert "Counted 1 finished game." in out.getvalue() and "Skipped" not in out.getvalue()
    assert counters("midnight-bakery") == live


def test_restat_skips_and_names_games_of_other_rules(player: User, rival: User) -> None:
    kept = finished_game([player, rival], bots=0)
    live = counters("midnight-bakery")
    old = finished_game([player, rival], bots=0)
    Game.objects.filter(pk=old.pk).update(rules_version=99)
    out = io.StringIO()
    call_command("restat", "--game", "midnight-bakery", stdout=out)
    said = out.getvalue()
    assert "Counted 1 finished game." in said
    assert f"Skipped game {old.pk}: This game was played under rules version" in said
    assert "1 finished game not counted" in said and f"game {kept.pk}" not in said
    assert counters("midnight-bakery") == live


def test_an_aborted_game_counts_nothing(player: User, running_game: Game) -> None:
    from games.services import moderation

    boss = User.objects.create_superuser(username="boss", password="a-long-baking-secret")
    moderation.abort(running_game, boss, "test")
    assert not StatCount.objects.exists()
    assert not RatingPoint.objects.exists()


def test_the_owl_denial_counts_the_nights_the_engine_says_it_denied() -> None:
    view: dict[str, list] = {"log": []}
    seats = {0: Seat(score=10, winner=True), 1: Seat(score=5)}
    denied = stats.game_facts(
        "midnight-bakery", view, {"owl_truffles": 3, "owl_denied": True}, seats
    )
    kept = stats.game_facts(
        "midnight-bakery", view, {"owl_truffles": 3, "owl_denied": False}, seats
    )
    assert denied["owl", "denied"] == 1 and denied["owl", "nights"] == 1
    assert kept["owl", "denied"] == 0 and kept["owl", "nights"] == 1
    alone = stats.game_facts("midnight-bakery", view, {"owl_truffles": None}, seats)
    assert alone["owl", "nights"] == 0


@pytest.mark.parametrize(
    ("bakers", "owl", "denied"),
    [((("truffle-01",), ()), ("truffle-02", "truffle-03"), 1), (((), ()), ("truffle-01",), 0)],
    ids=["most-while-a-baker-had-one", "the-only-truffles"],
)
def test_an_owl_denies_only_a_bonus_a_baker_could_have_had(
    bakers: tuple[tuple[str, ...], ...], owl: tuple[str, ...], denied: int
) -> None:
    state = crafted(2, bake=3, batches=[("croissant-01",), (), ()], truffles=[*bakers, owl])
    state = night.apply_action(state, 0, {"type": "keep", "card": "croissant-01"})
    seats = {0: Seat(score=1, winner=True), 1: Seat(score=0)}
    facts = stats.game_facts("midnight-bakery", night.view(state, None), night.result(state), seats)
    assert facts["owl", "nights"] == 1 and facts["owl", "denied"] == denied


def test_win_rate_is_by_seat_and_seat_zero_plays_first() -> None:
    view: dict[str, list] = {"seats": []}
    seats = {0: Seat(score=9), 1: Seat(score=3), 2: Seat(score=15, winner=True)}
    facts = stats.game_facts("cakehalla", view, {}, seats)
    assert facts["seat_wins", "3:3"] == 1  # the third to play won
    assert facts["seat_games", "3:1"] == 1 and not facts["seat_wins", "3:1"]
    assert catalog.get("cakehalla").seat_label(1) == "1st to play"
    assert catalog.get("midnight-bakery").seat_label(1) == "Flour"
    assert [ordinal(n) for n in (2, 3, 4, 11, 12, 13, 21, 22)] == [
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
    ]


def test_the_stats_pages_draw_the_charts(player: User, rival: User) -> None:
    finished_game([player, rival], bots=0)
    finished_game([player, rival], kind="cakehalla")
    _, mb = queries("/stats/midnight-bakery/")
    assert mb.count("<svg") >= 3 and "Most kept pastries" in mb and "Night Owl" in mb
    assert "Win rate by seat" in mb and "Flour" in mb and "Seats pass to the next" in mb
    assert "Most bought cards" not in mb
    _, ck = queries("/stats/cakehalla/")
    assert "Most bought cards" in ck and "1st to play" in ck and "Night Owl" not in ck
    assert "Win rate by turn order" in ck and "first-player advantage" in ck
    assert "Most kept pastries" not in ck
    assert Client().get("/stats/chess/").status_code == 404


def test_the_stats_page_costs_the_same_queries_with_a_thousand_times_more_games(
    player: User, rival: User
) -> None:
    game = finished_game([player, rival], bots=0)
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    seats = {s.position or 0: s for s in game.seats.all()}
    view, result = engine.view(state, None), engine.result(state)
    few, _ = queries("/stats/midnight-bakery/")
    facts = stats.game_facts(game.kind, view, result, seats)
    stats.add_counts(game.kind, Counter({k: n * 999 for k, n in facts.items()}))
    many, page = queries("/stats/midnight-bakery/")
    assert many == few
    assert "From 1000 finished games" in page


# Enough games that a query per game, or per seat, could not hide; each costs its end's counter
# writes (count_finished), so more would only slow the suite (3,000 took a minute on PostgreSQL).
HISTORY = 400


def copies_of(games: list[Game], count: int) -> list[Game]:
    """`count` more finished games like these, stored as their ends left them: the game row
    (its final snapshot and deal) and its seats with their scores, places and winners."""
    now = timezone.now()
    rows = Game.objects.bulk_create(
        Game(
            kind=g.kind,
            host_id=g.host_id,
            capacity=g.capacity,
            status=Game.Status.OVER,
            seed=g.seed,
            setup=g.setup,
            rules_version=g.rules_version,
            snapshot=g.snapshot,
            moves=g.moves,
            started_at=now - timedelta(minutes=n + 30),
            finished_at=now - timedelta(minutes=n),
        )
        for n in range(count)
        for g in [games[n % len(games)]]
    )
    seats = {g.pk: list(g.seats.all()) for g in games}
    Seat.objects.bulk_create(
        Seat(
            game=row,
            user_id=s.user_id,
            bot=s.bot,
            position=s.position,
            score=s.score,
            place=s.place,
            winner=s.winner,
            breakdown=s.breakdown,
        )
        for n, row in enumerate(rows)
        for s in seats[games[n % len(games)].pk]
    )
    return rows


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_the_stats_page_costs_the_same_queries_over_a_large_generated_history(
    player: User, rival: User, kind: str
) -> None:
    played = [finished_game([player, rival], kind, bots=bots) for bots in (0, 1)]
    few, page = queries(f"/stats/{kind}/")
    assert "From 2 finished games" in page
    ended = counters(kind)
    rows = copies_of(played, HISTORY)
    # The counters those games' ends write: the function a game's end calls (count_finished),
    # with the final view and result of the game each one copies.
    engine = played[0].spec.engine
    ends = []
    for game in played:
        state = engine.load(game.snapshot)
        ends.append((engine.view(state, None), engine.result(state)))
    seats: dict[int, dict[int, Seat]] = {row.pk: {} for row in rows}
    for seat in Seat.objects.filter(game__in=rows, position__isnull=False):
        seats[seat.game_id][seat.position or 0] = seat
    for n, row in enumerate(rows):
        view, result = ends[n % len(played)]
        stats.count_finished(row, view, result, seats[row.pk])
    total = counters(kind)
    assert sum(n for (chart, _), n in total.items() if chart == "games") == HISTORY + 2
    assert set(total) == set(ended)
    many, page = queries(f"/stats/{kind}/")
    assert many == few
    assert f"From {HISTORY + 2} finished games" in page
    assert page.count("<svg") >= 2


def test_a_profile_shows_each_games_record_and_rating_chart_in_constant_queries(
    player: User, rival: User
) -> None:
    def generate(count: int) -> None:
        """Finished games of the player, stored as if played: seats, scores, rating points."""
        rng = random.Random(count)
        now = timezone.now()
        games = Game.objects.bulk_create(
            Game(kind="midnight-bakery", host=player, capacity=2, status="over", finished_at=now)
            for _ in range(count)
        )
        Seat.objects.bulk_create(
            Seat(game=g, user=u, position=i, score=rng.randint(20, 70), winner=i == 0)
            for g in games
            for i, u in enumerate((player, rival))
        )
        RatingPoint.objects.bulk_create(
            RatingPoint(
                user=player,
                kind="midnight-bakery",
                game_id=g.pk,
                rating=1500 + rng.randint(-80, 80),
                at=now - timedelta(minutes=count - i),
            )
            for i, g in enumerate(games)
        )

    finished_game([player, rival], bots=0)
    generate(10)
    few, page = queries("/u/alice/")
    assert '<svg class="chart line"' in page and "Average score" in page
    generate(1000)
    many, page = queries("/u/alice/")
    assert many == few
    assert Seat.objects.filter(user=player, game__status="over").count() == 1011
    assert "over the last 60 games" in page


def test_the_rating_line_goes_through_every_point() -> None:
    drawn = charts.line([1500, 1520, 1490], width=100, height=50, pad=0)
    assert drawn is not None
    assert drawn.points == "0.0,33.3 50.0,0.0 100.0,50.0"
    assert (drawn.first, drawn.last, drawn.low, drawn.high) == (1500, 1490, 1490, 1520)
    assert charts.line([1500]) is None


def test_bins_cover_every_score_in_equal_ranges() -> None:
    assert charts.bins({1: 2, 3: 1}) == [("1", 2), ("2", 0), ("3", 1)]
    wide = charts.bins({v: 1 for v in range(0, 64)}, most=16)
    assert len(wide) == 16 and wide[0] == ("0 to 3", 4) and sum(n for _, n in wide) == 64
