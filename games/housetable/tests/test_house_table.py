"""The house table: when no person's game may be watched, the sweep keeps one game of house bots
running for the whole site, at a pace watchers can follow, counted in no rating, stat or list."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Rating, User
from games import services
from games.access import QUIET_SECONDS
from games.housetable import services as house
from games.housetable.models import HouseTable
from games.housetable.tests.play import play_on
from games.models import Action, Game, Seat, StatCount
from games.records import stats
from tests.conftest import client_for
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db


def people_playing(make_user: Callable[[str], User]) -> Game:
    """A running game of two people that anyone may watch."""
    host, guest = make_user("ann"), make_user("ben")
    return services.seat_people("cakehalla", [host, guest], pace=Game.Pace.NORMAL)


def watch_box(client_page: str) -> str:
    return client_page.split('id="watch-live"', 1)[1].split("</section>", 1)[0]


def lobby() -> str:
    return client_for(None).get("/").content.decode()


def test_an_empty_site_gets_one_house_table_of_bots_alone_that_anyone_may_watch() -> None:
    game = house.keep_going()
    assert game is not None and game.status == Game.Status.RUNNING
    assert not game.rated and not game.private and game.watchers == Game.Watchers.ANYONE
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    assert len(seats) == game.spec.quick_capacity and all(s.user.is_bot and s.bot for s in seats)
    assert house.keep_going() is None  # one at a time
    assert Game.objects.count() == 1
    assert HouseTable.objects.get().game == game


def test_no_house_table_starts_while_a_persons_game_may_be_watched(
    make_user: Callable[[str], User],
) -> None:
    people_playing(make_user)
    assert house.keep_going() is None
    assert not HouseTable.objects.exists()


def test_a_house_game_plays_to_its_end_and_the_next_waits_while_people_play(
    clock: Clock, make_user: Callable[[str], User]
) -> None:
    first = house.keep_going()
    assert first is not None
    people = people_playing(make_user)
    first.refresh_from_db()
    assert first.status == Game.Status.RUNNING  # watchers keep their game
    play_on(first, clock)
    assert house.keep_going() is None  # people play: no new house game
    services.resign(people, people.seats.get(user__username="ann").user)
    services.resign(people, people.seats.get(user__username="ben").user)
    services.run_bots(people.pk)
    people.refresh_from_db()
    assert people.status == Game.Status.OVER
    second = house.keep_going()
    assert second is not None and second.kind != first.kind  # the next game on offer


def test_house_bots_move_at_a_pace_watchers_can_follow(clock: Clock, settings: Any) -> None:
    pace = settings.HOUSE_TABLE_MOVE_SECONDS
    game = house.keep_going()
    assert game is not None
    assert services.run_bots(game.pk) == 0  # dealt: their first move waits its time
    clock.forward(pace - 0.5)
    assert services.run_bots(game.pk) == 0
    clock.forward(0.5)
    assert services.run_bots(game.pk) >= 1
    assert services.run_bots(game.pk) == 0  # the next move waits its own time again
    due = [s.deadline for s in Seat.objects.filter(game=game) if s.deadline is not None]
    assert due and all((at - clock()).total_seconds() == pace for at in due)


def test_a_house_game_counts_in_no_rating_stat_history_or_list(clock: Clock) -> None:
    game = house.keep_going()
    assert game is not None
    game = play_on(game, clock)
    assert game.status == Game.Status.OVER
    bots = Seat.objects.filter(game=game).values_list("user_id", flat=True)
    assert not Rating.objects.filter(user_id__in=bots).exists()
    assert not StatCount.objects.exists()
    assert [k["finished"] for k in stats.games_by_kind()] == [0, 0]
    assert stats.recount().counted == 0
    anyone = client_for(None)
    assert f"/games/{game.pk}/" not in anyone.get("/games/history/").content.decode()
    assert f"/games/{game.pk}/" not in lobby()  # nor among the recently finished
    bot = Seat.objects.filter(game=game).select_related("user").first()
    assert bot is not None
    profile = anyone.get(f"/u/{bot.user.username}/")
    assert profile.status_code == 200
    assert f"/games/{game.pk}/" not in profile.content.decode()


def test_the_lobby_shows_the_house_table_only_when_no_persons_game_may_be_watched(
    make_user: Callable[[str], User],
) -> None:
    assert "No game anyone may watch is running now." in watch_box(lobby())
    game = house.keep_going()
    assert game is not None
    box = watch_box(lobby())
    assert f'href="/games/{game.pk}/"' in box and "House table" in box
    assert all(s.user.username in box for s in Seat.objects.filter(game=game))
    people = people_playing(make_user)
    box = watch_box(lobby())
    assert f'href="/games/{people.pk}/"' in box
    assert f'href="/games/{game.pk}/"' not in box and "House table" not in box
    watch_page = client_for(None).get("/games/live/").content.decode()
    assert f"/games/{game.pk}/" not in watch_page


def test_the_house_tables_page_draws_no_clock_for_its_bots() -> None:
    game = house.keep_going()
    assert game is not None
    assert Seat.objects.filter(game=game).exclude(deadline=None).exists()
    page = client_for(None).get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert "data-deadline" not in page.content.decode()


def lobby_queries() -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client_for(None).get("/").status_code == 200
    return len(ctx.captured_queries)


def test_the_lobby_costs_the_same_queries_with_three_or_six_house_bots_or_old_house_games(
    clock: Clock,
) -> None:
    first = house.keep_going()
    assert first is not None
    three = lobby_queries()
    play_on(first, clock)
    bigger = services.house_table("midnight-bakery", ["greedy"] * 6)  # as a later sweep would
    HouseTable.objects.filter(pk=HouseTable.SITE).update(game=bigger)
    box = watch_box(lobby())
    assert f'href="/games/{bigger.pk}/"' in box
    assert all(s.user.username in box for s in Seat.objects.filter(game=bigger))
    assert lobby_queries() == three


def test_the_house_table_keeps_its_place_above_practice_tables_and_tables_left_behind(
    make_user: Callable[[str], User],
) -> None:
    ann, ben, cat, dan = (make_user(name) for name in ("ann", "ben", "cat", "dan"))
    practice = services.seat_people("cakehalla", [ann, ben], rated=False)
    left = services.seat_people("cakehalla", [cat, dan])
    long_ago = timezone.now() - timedelta(seconds=QUIET_SECONDS + 60)
    Game.objects.filter(pk=left.pk).update(started_at=long_ago)
    Action.objects.filter(game=left).update(created_at=long_ago)
    game = house.keep_going()
    assert game is not None
    box = watch_box(lobby())
    assert "No rated game of people that anyone may watch is running" in box
    assert box.index(f'href="/games/{game.pk}/"') < box.index(f'href="/games/{practice.pk}/"')
    assert f'href="/games/{left.pk}/"' not in box
