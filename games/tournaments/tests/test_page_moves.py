"""Your next table is ready: when the tournament seats a person at a live pace, every open page
of theirs goes to the new table (a socket of theirs at another table hears page.go); at a
turn-based pace they are told in the inbox and no page moves."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games import events
from games import services as tables
from games.models import Game
from games.notifications import services as notices
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.support.clock import Clock
from tests.support.sockets import open_board, socket

pytestmark = pytest.mark.django_db(transaction=True)

GO = re.compile(r'<template id="page-go" data-url="(/games/\d+/)"></template>')
Crowd = Callable[[int], list[User]]


async def next_go(ws: Any) -> str:
    """The table the socket sends its page to, after any board pushes on their way."""
    while True:
        found = GO.search(await ws.receive_from())
        if found:
            return found.group(1)


def table_of(tournament: Tournament, person: User) -> Game:
    """The game of the person's latest tournament table."""
    entrant = Entrant.objects.select_related("table__game").get(tournament=tournament, user=person)
    assert entrant.table is not None and entrant.table.game is not None
    return entrant.table.game


def started_with_everyone_here(tournament: Tournament, people: list[User]) -> Tournament:
    """A sweep after each person's tournament page said they are here."""
    for person in people:
        services.here(tournament.pk, person.pk)
    return swept(tournament)


async def test_a_live_swiss_round_sends_a_page_of_the_person_at_another_table_to_theirs(
    clock: Clock, crowd: Crowd, outsider: User
) -> None:
    people = await database_sync_to_async(crowd)(3)
    elsewhere = await database_sync_to_async(tables.seat_people)(
        "cakehalla", [people[0], outsider], pace=Game.Pace.DAY1
    )
    ws = await socket(elsewhere, people[0])
    await open_board(ws)
    made = await database_sync_to_async(services.create)(people[1], rules(clock, pace="fast"))
    tournament = await database_sync_to_async(entered)(made, people)
    clock.forward(61)
    tournament = await database_sync_to_async(started_with_everyone_here)(tournament, people)
    assert tournament.current_round == 1
    game = await database_sync_to_async(table_of)(tournament, people[0])
    assert await next_go(ws) == game.get_absolute_url()
    await ws.disconnect()


async def test_an_arena_table_that_ends_sends_its_people_on_to_their_next_table(
    clock: Clock, crowd: Crowd
) -> None:
    people = await database_sync_to_async(crowd)(2)
    arena = rules(clock, format="arena", pace="fast", minutes=30, seats=2)
    made = await database_sync_to_async(services.create)(None, arena)
    tournament = await database_sync_to_async(entered)(made, people)
    clock.forward(61)
    tournament = await database_sync_to_async(started_with_everyone_here)(tournament, people)
    first = await database_sync_to_async(table_of)(tournament, people[0])
    ws = await socket(first, people[0])
    await open_board(ws)
    [table] = await database_sync_to_async(running_tables)(tournament)
    await database_sync_to_async(play_table)(table)
    clock.forward(5)
    tournament = await database_sync_to_async(started_with_everyone_here)(tournament, people)
    second = await database_sync_to_async(table_of)(tournament, people[0])
    assert second.pk != first.pk
    assert await next_go(ws) == second.get_absolute_url()
    await ws.disconnect()


def test_a_turn_based_round_moves_no_page_and_tells_the_inbox(
    clock: Clock, crowd: Crowd, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(events.seated, "tell", lambda user_id, url: sent.append((user_id, url)))
    people = crowd(3)
    tournament = entered(services.create(people[0], rules(clock, pace="day1")), people)
    clock.forward(61)
    tournament = swept(tournament)
    assert tournament.current_round == 1 and running_tables(tournament)
    assert sent == []
    ready = people[0].notifications.filter(kind="tournament", text__contains="is ready")
    assert ready.get().url == table_of(tournament, people[0]).get_absolute_url()


def test_a_live_round_moves_each_seated_persons_pages_to_their_own_table(
    clock: Clock, crowd: Crowd, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(events.seated, "tell", lambda user_id, url: sent.append((user_id, url)))
    people = crowd(6)
    tournament = entered(services.create(people[0], rules(clock, pace="normal")), people)
    clock.forward(61)
    tournament = started_with_everyone_here(tournament, people)
    expected = {(p.pk, table_of(tournament, p).get_absolute_url()) for p in people}
    assert sorted(sent) == sorted(expected) and len(sent) == 6


def test_a_live_round_pushes_no_badge_to_the_pages_it_moves_but_to_the_others(
    clock: Clock, crowd: Crowd, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page sent to its new table draws the menu's badge there: a badge pushed to the
    sockets it is leaving is work for nothing, 200 of them at a Swiss round's start. Someone
    the round does not move (a bye) still has their badge pushed."""
    people = crowd(7)
    made = services.create(people[0], rules(clock, pace="normal", fewest=3))
    tournament = entered(made, people)
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    services.warn_soon(tournament.pk)  # told before the start, as the sweep tells them
    sent: list[tuple[int, str]] = []
    badged: list[int] = []
    monkeypatch.setattr(events.seated, "tell", lambda user_id, url: sent.append((user_id, url)))
    monkeypatch.setattr(notices, "badges_changed", lambda user_ids: badged.extend(user_ids))
    swept(tournament)
    moved = {user_id for user_id, _ in sent}
    assert len(moved) == 6
    assert not moved & set(badged)
    assert {p.pk for p in people} - moved <= set(badged)
