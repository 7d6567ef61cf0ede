"""Waiting tables: how many one person keeps open, which the lobby lists, and the sweep that
closes those nobody started."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.models import User
from games import services
from games.friends.services import block
from games.models import Game, Seat
from games.services.tables import WAITING_TABLES, WAITING_TURN_BASED_TABLES
from games.services.unstarted import WAITING_LIVE_FOR, WAITING_TURN_BASED_FOR
from games.tutorial import services as tutorial
from games.web.lobby import LOBBY_TABLES, LOBBY_TABLES_PER_HOST
from tests.conftest import client_for
from tests.support.clock import Clock
from tests.support.finished_games import finished_game
from tests.support.sweeps import sweep_once

# backend: the lobby's lists are SQL (windows, per-host caps).
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def open_tables_section(viewer: User | None) -> str:
    """The lobby's list of tables to join, as this viewer sees it."""
    page = client_for(viewer).get("/").content.decode()
    return page.split('id="open-tables"', 1)[1].split("</section>", 1)[0]


def listed_in_lobby(game: Game, viewer: User | None) -> bool:
    return f'href="/games/{game.pk}/"' in open_tables_section(viewer)


def tables_made_before_the_cap(host: User, count: int) -> list[Game]:
    """Open tables of one host written as the scan wrote them, before any cap held."""
    made = []
    for _ in range(count):
        game = Game.objects.create(kind="midnight-bakery", host=host, capacity=4)
        Seat.objects.create(game=game, user=host)
        made.append(game)
    return made


def test_a_person_keeps_at_most_three_tables_waiting_and_is_told_why(player: User) -> None:
    for _ in range(WAITING_TABLES):
        services.create_game(player, "midnight-bakery", 2)
    with pytest.raises(services.ServiceError, match="already have 3 tables waiting"):
        services.create_game(player, "cakehalla", 2, private=True)
    response = client_for(player).post(
        "/games/new/", {"kind": "midnight-bakery", "capacity": "2", "pace": "relaxed"}
    )
    assert response.status_code == 400
    assert "start or cancel one of them before you open another" in response.content.decode()
    assert Game.objects.filter(host=player).count() == WAITING_TABLES


def test_turn_based_tables_have_a_cap_of_their_own(player: User) -> None:
    for _ in range(WAITING_TABLES):
        services.create_game(player, "midnight-bakery", 2)
    for _ in range(WAITING_TURN_BASED_TABLES):
        services.create_game(player, "cakehalla", 2, pace=Game.Pace.DAY1)
    with pytest.raises(services.ServiceError, match="5 turn-based tables waiting"):
        services.create_game(player, "cakehalla", 2, pace=Game.Pace.DAY3)


def test_a_started_or_cancelled_table_no_longer_counts(player: User, rival: User) -> None:
    tables = [services.create_game(player, "midnight-bakery", 2) for _ in range(WAITING_TABLES)]
    services.join(tables[0], rival)
    services.start(tables[0], player)
    services.cancel(tables[1], player)
    services.create_game(player, "midnight-bakery", 2)
    services.create_game(player, "midnight-bakery", 2)
    with pytest.raises(services.ServiceError):
        services.create_game(player, "midnight-bakery", 2)


def test_games_dealt_at_once_start_beside_a_full_count(player: User, rival: User) -> None:
    for _ in range(WAITING_TABLES):
        services.create_game(player, "midnight-bakery", 2)
    quick = services.quick_game(player, "cakehalla")
    learning = tutorial.start_tutorial(player, "midnight-bakery")
    paired = services.seat_people("cakehalla", [player, rival])  # quick pairing, tournaments
    assert {quick.status, learning.status, paired.status} == {Game.Status.RUNNING}


def test_a_rematch_is_offered_beside_a_full_count(player: User, rival: User) -> None:
    game = finished_game([player, rival])
    for _ in range(WAITING_TABLES):
        services.create_game(player, "midnight-bakery", 2)
    offered = services.rematch(game, player)
    assert offered.status == Game.Status.OPEN and offered.rematch_of_id == game.pk


def test_the_lobby_shows_a_new_table_beside_an_account_holding_its_maximum(
    player: User, make_user
) -> None:
    hog = make_user("scanner")
    mine = services.create_game(player, "midnight-bakery", 2)
    scanned = tables_made_before_the_cap(hog, 40)
    with pytest.raises(services.ServiceError):
        services.create_game(hog, "cakehalla", 3)
    viewer = make_user("dora")
    assert listed_in_lobby(mine, viewer)
    assert listed_in_lobby(mine, None)
    section = open_tables_section(viewer)
    hogs = [g for g in Game.objects.filter(host=hog) if f'href="/games/{g.pk}/"' in section]
    assert len(hogs) == LOBBY_TABLES_PER_HOST
    assert hogs == scanned[-LOBBY_TABLES_PER_HOST:][::-1]


def test_the_lobby_lists_at_most_thirty_tables_newest_first(make_user) -> None:
    hosts = [make_user(f"host{n}") for n in range(LOBBY_TABLES + 2)]
    tables = [services.create_game(h, "midnight-bakery", 2) for h in hosts]
    section = open_tables_section(None)
    assert section.count('href="/games/') == LOBBY_TABLES
    assert section.index(f'href="/games/{tables[-1].pk}/"') < section.index(
        f'href="/games/{tables[2].pk}/"'
    )
    assert f'href="/games/{tables[0].pk}/"' not in section


def test_the_lobby_lists_only_tables_the_viewer_can_sit_at(
    player: User, rival: User, outsider: User
) -> None:
    full = services.create_game(player, "midnight-bakery", 2)
    services.join(full, rival)
    free = services.create_game(player, "midnight-bakery", 3)
    ours = services.create_game(outsider, "midnight-bakery", 3)
    assert not listed_in_lobby(full, outsider)
    assert listed_in_lobby(free, outsider)
    assert not listed_in_lobby(ours, outsider)  # their own: under Your games
    assert f'href="/games/{ours.pk}/"' in client_for(outsider).get("/").content.decode()
    block(player, outsider)
    assert not listed_in_lobby(free, outsider)
    assert listed_in_lobby(free, rival)


def test_a_table_nobody_started_in_a_day_is_closed_by_the_sweep(
    player: User, rival: User, outsider: User, clock: Clock
) -> None:
    live = services.create_game(player, "midnight-bakery", 3)
    services.join(live, rival)
    turn_based = services.create_game(player, "cakehalla", 2, pace=Game.Pace.DAY1)
    clock.at = turn_based.created_at + WAITING_LIVE_FOR + timedelta(seconds=1)
    sweep_once()
    live.refresh_from_db()
    turn_based.refresh_from_db()
    assert (live.status, turn_based.status) == (Game.Status.CANCELLED, Game.Status.OPEN)
    words = "This table closed: it waited a day and nobody started it."
    assert words in client_for(rival).get(live.get_absolute_url()).content.decode()
    with pytest.raises(services.ServiceError, match=words):
        services.join(live, outsider)
    clock.at = turn_based.created_at + WAITING_TURN_BASED_FOR + timedelta(seconds=1)
    sweep_once()
    turn_based.refresh_from_db()
    assert turn_based.status == Game.Status.CANCELLED
    page = client_for(player).get(turn_based.get_absolute_url()).content.decode()
    assert "it waited a week and nobody started it" in page


def test_a_rematch_nobody_answered_in_a_day_is_called_off(
    player: User, rival: User, clock: Clock
) -> None:
    game = finished_game([player, rival], bots=0)  # without bob, too few to deal it
    offered = services.rematch(game, player)
    clock.at = offered.created_at + WAITING_LIVE_FOR + timedelta(seconds=1)
    sweep_once()
    offered.refresh_from_db()
    assert offered.status == Game.Status.CANCELLED
