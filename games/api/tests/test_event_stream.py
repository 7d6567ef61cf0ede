"""The event stream read under ASGI (AsyncClient, the in-memory channel layer): the tables you
play at first, then a table dealt with you in it, your turn at a turn-based table, a game
finished, an invitation; and its refusals."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import tokens
from accounts.models import User
from games import events, services
from games.api.event_stream import EventFeed
from games.api.tests.conftest import Api
from games.api.tests.test_game_stream import play, stream, table_and_first, token_of
from games.models import Game
from games.notifications import services as notifications
from games.notifications.models import Notification
from tests.support.cakehalla_tables import state_of, user_at

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def waiting_table(host: User, guest: User, pace: str = Game.Pace.RELAXED) -> Game:
    game = services.create_game(host, "cakehalla", 2, pace=pace)
    services.join(game, guest)
    return game


async def test_the_tables_you_play_come_first(player: User, rival: User) -> None:
    game, _, token, _ = await table_and_first(player, rival)
    reader = await stream("/stream/event", token)
    line = await reader.line()
    assert line == {"type": "gameStart", "id": game.pk, "game": "cakehalla", "status": "running"}


async def test_a_table_dealt_with_you_in_it(player: User, rival: User) -> None:
    game = await waiting_table(player, rival)
    reader = await stream("/stream/event", await database_sync_to_async(token_of)(rival))
    await database_sync_to_async(services.start)(game, player)
    line = await reader.until("gameStart")
    assert line["id"] == game.pk and line["status"] == "running"


async def test_your_turn_at_a_turn_based_table(player: User, rival: User) -> None:
    game = await waiting_table(player, rival, Game.Pace.DAY1)
    await database_sync_to_async(services.start)(game, player)
    first = await database_sync_to_async(lambda: user_at(game, state_of(game).turn))()
    other = rival if first == player else player
    reader = await stream("/stream/event", await database_sync_to_async(token_of)(other))
    assert (await reader.line())["type"] == "gameStart"
    await play(game, first)
    line = await reader.until("yourTurn")
    assert line["id"] == game.pk and "your move" in str(line["text"])


async def test_a_game_finished(player: User, rival: User) -> None:
    game, first, token, _ = await table_and_first(player, rival)
    reader = await stream("/stream/event", token)
    await reader.line()
    other = rival if first == player else player
    await database_sync_to_async(services.resign)(game.pk, other)
    await database_sync_to_async(services.resign)(game.pk, first)
    line = await reader.until("gameFinish")
    assert line["id"] == game.pk and line["status"] == "over"


async def test_an_invitation(player: User, rival: User) -> None:
    game = await database_sync_to_async(services.create_game)(player, "cakehalla", 3)
    reader = await stream("/stream/event", await database_sync_to_async(token_of)(rival))
    await database_sync_to_async(events.invited.tell)(game.pk, player.pk, rival.pk)
    line = await reader.until("invitation")
    assert line["id"] == game.pk and line["status"] == "open"


def test_the_event_stream_needs_its_scope(player: User, api_for: Callable[..., Api]) -> None:
    refused = api_for(player, ["chat:read"]).get("/stream/event")
    assert refused.status_code == 403 and "events:join" in refused.json()["error"]
    assert api_for(player, ["bot:play"]).get("/stream/event").status_code == 200
    assert Api(None).get("/stream/event").status_code == 401


def test_an_expired_token_is_refused(player: User) -> None:
    made = tokens.make(player.pk, "old", list(tokens.SCOPES), 1)
    tokens.AccessToken.objects.filter(pk=made.row.pk).update(expires_at=made.row.created_at)
    refused = Api(made.token).get("/stream/event")
    assert refused.status_code == 401 and "expired" in refused.json()["error"]


@pytest.mark.django_db
def test_a_tournament_round_and_a_rematch_are_said_and_a_friend_request_is_not(
    player: User, rival: User
) -> None:
    feed = EventFeed(player)
    assert feed.first() == []
    kinds = Notification.Kind
    for kind, key in [(kinds.TOURNAMENT, "round:1"), (kinds.FRIEND, "friend:1")]:
        told = notifications.Told(player.pk, key, f"{kind} news", url="/tournaments/1/")
        notifications.tell_each(kind, [told])
    game = services.create_game(player, "cakehalla", 2)
    notifications.tell_each(
        kinds.REMATCH, [notifications.Told(player.pk, "rematch:x", "Again?", game)]
    )
    lines = feed.heard({"type": "notices.changed"})
    assert [line["type"] for line in lines] == ["tournament", "rematch"]
    assert lines[0]["url"] == "/tournaments/1/" and lines[1]["id"] == game.pk
    assert feed.heard({"type": "notices.changed"}) == []  # said once


@pytest.mark.django_db
def test_the_beat_finds_a_deal_and_an_end_no_message_told(player: User, rival: User) -> None:
    feed = EventFeed(rival)
    assert feed.first() == []
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    services.start(game, player)  # its messages go to no stream here: only the beat sees it
    assert [(line["type"], line["id"]) for line in feed.beat()] == [("gameStart", game.pk)]
    assert feed.beat() == []
    services.resign(game.pk, player)
    services.resign(game.pk, rival)
    assert [line["type"] for line in feed.beat() if line["type"] != "yourTurn"] == ["gameFinish"]
    assert feed.heard({"type": "game.finished", "game": game.pk}) == []  # said once
    assert feed.heard({"type": "game.started", "game": game.pk}) == []


@pytest.mark.django_db
def test_one_heal_finds_which_event_streams_missed_something_for_them_all(
    player: User, rival: User, make_user: Callable[[str], User]
) -> None:
    """The process's watcher asks once for all its event streams (stream_watch.look): a deal,
    an end and a notification each make only their people's streams beat, in the same few
    queries however many streams are open."""
    mine, theirs = EventFeed(player), EventFeed(rival)
    quiet = [EventFeed(make_user(f"quiet{i}")) for i in range(6)]
    feeds = [mine, theirs, *quiet]
    for feed in feeds:
        feed.first()
    missed = mine.heal()
    assert all(feed.heal() is missed for feed in feeds)  # one look for every event stream

    def due() -> list[bool]:
        with CaptureQueriesContext(connection) as queries:
            found = missed(feeds)
        assert len(queries) <= 5, [query["sql"] for query in queries]
        return found

    nobody = [False] * len(feeds)
    assert due() == nobody
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    services.start(game, player)  # its messages go to no stream here: only the heal sees it
    assert due() == [True, True, *[False] * len(quiet)]
    mine.beat(), theirs.beat()
    assert due() == nobody
    told = notifications.Told(quiet[2].me.pk, "round:1", "Round 1", url="/tournaments/1/")
    notifications.tell_each(Notification.Kind.TOURNAMENT, [told])
    assert due() == [False, False, False, False, True, False, False, False]
    quiet[2].beat()
    services.resign(game.pk, player)
    services.resign(game.pk, rival)
    assert due() == [True, True, *[False] * len(quiet)]


@pytest.mark.django_db
def test_a_table_you_resigned_from_is_not_said_dealt(player: User, rival: User) -> None:
    """A stream opened after its person resigned (a house bot plays their seat to the end) says
    nothing of that table: not on its first lines, not at a beat, and the heal finds nothing."""
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    services.start(game, player)
    services.resign(game.pk, player)
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING  # the house bot plays on
    feed = EventFeed(player)
    assert feed.first() == []
    assert feed.heal()([feed]) == [False]
    assert feed.beat() == []
