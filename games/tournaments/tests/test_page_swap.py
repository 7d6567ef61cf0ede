"""A Swiss round's page.go carries each person's new table (games/boards/page.py): a page of
the same game swaps it in place instead of asking for it (static/js/live.js). What each socket
sends is that person's own view, in their language, the very part their visit would draw less
its CSRF tokens; a page of another game is sent there as before."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games import services as tables
from games.models import Game
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.tests.conftest import entered, rules, swept
from tests.conftest import client_for
from tests.engines.midnight_bakery.helpers import QUOTED_WORD, hidden_from
from tests.support.clock import Clock
from tests.support.sockets import open_board, socket

pytestmark = pytest.mark.django_db(transaction=True)

SWAP = re.compile(
    r'<template id="page-go" data-url="(/games/\d+/)"></template>'
    r'<template id="page-swap" data-url="\1" data-title="([^"]*)">'
    r'<div id="table-page">(.*)</div></template>\Z',
    re.S,
)
TOKEN = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')
SERVER_NOW = re.compile(r'data-server-now="\d+"')
Crowd = Callable[[int], list[User]]


async def next_go(ws: Any) -> str:
    """The socket's page.go message, after any board pushes on their way."""
    while True:
        message = await ws.receive_from()
        if 'id="page-go"' in message:
            return str(message)


def started(clock: Clock, people: list[User], changes: dict[str, Any]) -> Tournament:
    """A fast Swiss of these people made, entered, and its first round started by a sweep once
    each said they are here."""
    tournament = entered(services.create(people[0], rules(clock, pace="fast", **changes)), people)
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    assert tournament.current_round == 1
    return tournament


async def round_one(clock: Clock, people: list[User], **changes: Any) -> Tournament:
    """started, from a test's loop."""
    return await database_sync_to_async(started)(clock, people, changes)


def seat_of(tournament: Tournament, person: User) -> tuple[Game, int]:
    """The person's new table and their seat's position at it."""
    entrant = Entrant.objects.select_related("table__game").get(tournament=tournament, user=person)
    assert entrant.table is not None and entrant.table.game is not None
    game = entrant.table.game
    position = game.seats.get(user=person).position
    assert position is not None
    return game, position


def page_part(person: User, game: Game) -> str:
    """#table-page of the person's visit to the table, without its CSRF tokens."""
    body = client_for(person).get(game.get_absolute_url()).content.decode()
    found = re.search(r'<div id="table-page">(.*)</div>\s*</main>', body, re.S)
    assert found
    return found.group(1)


def normal(html: str) -> str:
    """HTML with what differs between two drawings of one moment taken out."""
    return SERVER_NOW.sub("", TOKEN.sub("", html)).strip()


async def test_each_page_of_a_live_round_gets_its_own_view_of_its_new_table(
    clock: Clock, crowd: Crowd
) -> None:
    people = await database_sync_to_async(crowd)(4)
    people[1].language = "fr"
    await database_sync_to_async(people[1].save)(update_fields=["language"])
    waiting = [
        await database_sync_to_async(tables.create_game)(p, "midnight-bakery", 4) for p in people
    ]
    sockets = [await socket(g, p) for g, p in zip(waiting, people, strict=True)]
    for ws in sockets:
        await open_board(ws)
    tournament = await round_one(clock, people, seats=4)
    for person, ws in zip(people, sockets, strict=True):
        message = await next_go(ws)
        game, position = await database_sync_to_async(seat_of)(tournament, person)
        found = SWAP.search(message)
        assert found, message[:300]
        url, title, part = found.groups()
        assert url == game.get_absolute_url()
        assert title == f"{game} · Bakehouse"
        await database_sync_to_async(game.refresh_from_db)()
        state = game.spec.engine.load(game.snapshot)
        shown = set(QUOTED_WORD.findall(html.unescape(part)))
        assert not shown & hidden_from(state, position)  # no other seat's batch, no deck
        assert set(state.batches[position]) <= shown  # their own batch
        said = ("Signaler un joueur", "Report a player")
        assert said[person is not people[1]] in part  # in the person's own language
        visit = await database_sync_to_async(page_part)(person, game)
        assert normal(part) == normal(visit)
        await ws.disconnect()


async def test_a_page_of_another_game_is_sent_to_its_new_table_without_it(
    clock: Clock, crowd: Crowd
) -> None:
    people = await database_sync_to_async(crowd)(3)
    other = await database_sync_to_async(tables.create_game)(people[0], "cakehalla", 2)
    ws = await socket(other, people[0])
    await open_board(ws)
    tournament = await round_one(clock, people)
    game, _ = await database_sync_to_async(seat_of)(tournament, people[0])
    message = await next_go(ws)
    assert message == f'<template id="page-go" data-url="{game.get_absolute_url()}"></template>'
    await ws.disconnect()
