"""Watch live: the lobby and /games/live/ list running tables anyone may watch, best first, with
players, ratings, pace and watchers, each opened in one click, in the same queries however many."""

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
from games.models import Action, Game
from games.services import presence
from games.tutorial import services as tutorial
from tests.conftest import client_for

# backend: who may watch is decided in SQL (games/access.py).
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def rate(user: User, kind: str, rating: int) -> None:
    Rating.objects.create(
        user=user, kind=kind, mu=25, sigma=8, ordinal=rating / 100, rating=rating, games=5
    )


def running(host: User, guest: User, kind: str = "midnight-bakery", **table: Any) -> Game:
    game = services.create_game(host, kind, 2, **table)
    services.join(game, guest, game.invite)
    services.start(game, host)
    game.refresh_from_db()
    return game


def section(page: str) -> str:
    return page.split('id="watch-live"', 1)[1].split("</section>", 1)[0]


def live_ids(page: str) -> list[int]:
    return [int(part.split('"', 1)[0]) for part in section(page).split('data-live-game="')[1:]]


@pytest.fixture
def people(make_user: Callable[[str], User]) -> list[User]:
    return [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay")]


def test_the_lobby_lists_running_tables_best_first(people: list[User]) -> None:
    ann, ben, cat, dan, eve, fay = people
    low = running(ann, ben)
    high = running(cat, dan, "cakehalla", pace=Game.Pace.FAST)
    unrated = running(eve, fay)
    for user, value in ((ann, 1400), (ben, 1500), (cat, 1700), (dan, 1800)):
        rate(user, "midnight-bakery" if user in (ann, ben) else "cakehalla", value)
    page = client_for(None).get("/").content.decode()
    assert live_ids(page) == [high.pk, low.pk, unrated.pk]
    first = section(page).split("</li>", 1)[0]
    assert 'cat <span class="muted">(1700)</span>' in first
    assert 'dan <span class="muted">(1800)</span>' in first
    assert "Fast (20 s a move, 60 s bank)" in first
    assert "0 watching" in first


@pytest.mark.parametrize(
    "table",
    [
        {"private": True},
        {"watchers": Game.Watchers.PLAYERS},
        {"watchers": Game.Watchers.PEOPLE},
    ],
)
def test_a_table_not_everyone_may_watch_is_not_listed(
    people: list[User], table: dict[str, Any]
) -> None:
    shown = running(people[0], people[1])
    hidden = running(people[2], people[3], **table)
    services.create_game(people[4], "midnight-bakery", 2)  # open, not running
    for viewer in (None, people[4], people[2]):
        ids = live_ids(client_for(viewer).get("/").content.decode())
        assert ids == [shown.pk] and hidden.pk not in ids


def test_the_spectator_count_counts_watchers_not_players(people: list[User]) -> None:
    game = running(people[0], people[1])
    presence.opened("p!1", game.pk, people[0].pk)
    presence.opened("w!1", game.pk, people[2].pk)
    presence.opened("w!2", game.pk, people[2].pk)
    presence.opened("g!1", game.pk, None)
    assert "2 watching" in section(client_for(None).get("/games/live/").content.decode())


def test_one_click_opens_the_table_for_a_spectator(people: list[User]) -> None:
    game = running(people[0], people[1])
    page = client_for(None).get("/").content.decode()
    href = section(page).split('<a class="watch" href="', 1)[1].split('"', 1)[0]
    assert href == f"/games/{game.pk}/"
    table = client_for(people[2]).get(href)
    assert table.status_code == 200 and 'id="live"' in table.content.decode()


def test_the_lobby_shows_five_and_the_page_shows_them_all(people: list[User]) -> None:
    games = [running(people[i % 6], people[(i + 1) % 6]) for i in range(6)]
    assert len(live_ids(client_for(None).get("/").content.decode())) == 5
    assert sorted(live_ids(client_for(None).get("/games/live/").content.decode())) == sorted(
        g.pk for g in games
    )


def queries(path: str) -> int:
    client = client_for(None)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("path", ["/", "/games/live/"])
def test_the_live_list_costs_the_same_queries_for_one_or_four_tables(
    people: list[User], path: str
) -> None:
    first = running(people[0], people[1])
    rate(people[0], "midnight-bakery", 1600)
    presence.opened("w!1", first.pk, people[5].pk)
    one = queries(path)
    for i in range(3):
        game = running(people[(i + 1) % 5], people[(i + 2) % 5], "cakehalla")
        presence.opened(f"w!{i + 2}", game.pk, people[5].pk)
        rate(people[(i + 1) % 5], "cakehalla", 1500 + i)
    assert queries(path) == one


def test_a_practice_table_is_tagged_in_watch_live_and_open_tables(people: list[User]) -> None:
    ann, ben, cat, dan, eve, _ = people
    rated = running(ann, ben)
    practice = running(cat, dan, rated=False)
    waiting = services.create_game(eve, "cakehalla", 3, rated=False)
    page = client_for(None).get("/").content.decode()
    lines = {
        game.pk: line
        for line in section(page).split("</li>")
        for game in (rated, practice)
        if f'data-live-game="{game.pk}"' in line
    }
    assert '<span class="tag practice">practice</span>' in lines[practice.pk]
    assert "practice" not in lines[rated.pk]
    open_section = page.split("<h2>Open tables</h2>", 1)[1].split("</section>", 1)[0]
    (line,) = [li for li in open_section.split("</li>") if f"/games/{waiting.pk}/" in li]
    assert '<span class="tag practice">practice</span>' in line


def test_a_tutorial_is_never_listed_even_if_its_row_says_public(people: list[User]) -> None:
    ann = people[0]
    game = tutorial.start_tutorial(ann, "midnight-bakery")
    Game.objects.filter(pk=game.pk).update(private=False, watchers=Game.Watchers.ANYONE)
    page = client_for(None).get("/").content.decode()
    assert f"/games/{game.pk}/" not in page
    assert f"/games/{game.pk}/" not in client_for(None).get("/games/live/").content.decode()


def leave_behind(game: Game) -> None:
    """No move at the table for longer than access.QUIET_SECONDS."""
    long_ago = timezone.now() - timedelta(seconds=QUIET_SECONDS + 60)
    Game.objects.filter(pk=game.pk).update(started_at=long_ago)
    Action.objects.filter(game=game).update(created_at=long_ago)


def test_a_table_left_behind_is_not_listed_until_one_of_its_people_is_back(
    people: list[User],
) -> None:
    ann, ben, cat, dan, eve, _ = people
    left = running(ann, ben, rated=False)
    playing = running(cat, dan)
    leave_behind(left)
    presence.opened("w!1", left.pk, eve.pk)  # a spectator alone keeps nothing moving
    for path in ("/", "/games/live/"):
        assert live_ids(client_for(None).get(path).content.decode()) == [playing.pk]
    presence.opened("p!1", left.pk, ann.pk)
    assert live_ids(client_for(None).get("/games/live/").content.decode()) == [
        playing.pk,
        left.pk,
    ]


def test_practice_tables_come_after_rated_games_whatever_their_ratings(
    people: list[User],
) -> None:
    ann, ben, cat, dan, _, _ = people
    practice = running(ann, ben, rated=False)
    rated = running(cat, dan)
    rate(ann, "midnight-bakery", 2000)
    rate(ben, "midnight-bakery", 2000)
    rate(cat, "midnight-bakery", 1200)
    assert live_ids(client_for(None).get("/").content.decode()) == [rated.pk, practice.pk]
