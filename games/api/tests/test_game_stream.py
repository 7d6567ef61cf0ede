"""The game stream read under ASGI (Django's AsyncClient, the in-memory channel layer): the table
first, each move's version after, the chat, the end of the game, the drain and a revoked token
ending it, the caps; and its refusals."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient

from accounts import tokens
from accounts.models import User
from games import services
from games.api import bots, game_stream
from games.api.game_stream import GameFeed
from games.api.tables import table_out
from games.api.tests.conftest import Api
from games.live import drain, streams
from games.live.streams import Said
from games.models import Game
from games.services import presence
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10.0  # seconds a line may take before the test fails (a failure, never a measure)


@pytest.fixture(autouse=True)
def _quick_looks(settings: Any) -> None:
    """The token is looked at often, so a revocation shows at once."""
    settings.STREAM_RECHECK_SECONDS = 0.05


class Reader:
    """A stream's lines, read as they come (blank keep-alives skipped)."""

    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self.chunks = chunks
        self.buffer = b""

    async def line(self) -> dict[str, Any]:
        while b"\n" not in self.buffer.lstrip(b"\n"):
            self.buffer = self.buffer.lstrip(b"\n")
            self.buffer += await asyncio.wait_for(anext(self.chunks), WAIT)
        self.buffer = self.buffer.lstrip(b"\n")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return dict(json.loads(line))

    async def until(self, kind: str) -> dict[str, Any]:
        while (line := await self.line())["type"] != kind:
            pass
        return line

    async def ended(self) -> bool:
        """Whether nothing follows the end."""
        try:
            await asyncio.wait_for(anext(self.chunks), WAIT)
        except StopAsyncIteration:
            return True
        return False


def token_of(user: User, scopes: list[str] | None = None) -> str:
    return tokens.make(user.pk, "stream", scopes or list(tokens.SCOPES), None).token


async def opened(path: str, token: str, **more: str) -> Any:
    headers = {"Authorization": f"Bearer {token}", **more}
    return await AsyncClient().get(f"/api{path}", headers=headers)


async def stream(path: str, token: str) -> Reader:
    response = await opened(path, token)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/x-ndjson"
    reader = Reader(aiter(response.streaming_content))
    assert await asyncio.wait_for(anext(reader.chunks), WAIT) == b"\n"  # its groups are joined
    return reader


@database_sync_to_async
def table_and_first(player: User, rival: User) -> tuple[Game, User, str, str]:
    game = two_baker_table(player, rival)
    first = user_at(game, state_of(game).turn)
    return game, first, token_of(first), token_of(rival if first == player else player)


@database_sync_to_async
def play(game: Game, user: User) -> int:
    """One legal move of this person's through the API's own path; the version after."""
    api = Api(token_of(user))
    table = api.get(f"/games/{game.pk}").json()
    moved = api.post(
        f"/games/{game.pk}/move", {"action": table["legal"][0], "version": table["version"]}
    )
    assert moved.status_code == 200, moved.content
    return int(moved.json()["version"])


async def test_the_table_comes_first_then_each_version(player: User, rival: User) -> None:
    game, first, token, _ = await table_and_first(player, rival)
    reader = await stream(f"/games/{game.pk}/stream", token)
    full = await reader.line()
    assert full["type"] == "gameFull" and full["your_move"] and full["version"] == game.version
    expected = await database_sync_to_async(Api(token).get)(f"/games/{game.pk}")
    assert {k: v for k, v in full.items() if k != "type"} == expected.json()
    version = await play(game, first)
    state = await reader.until("gameState")
    assert state["version"] == version and not state["your_move"]


async def test_the_rival_sees_the_move_from_their_seat(player: User, rival: User) -> None:
    game, first, _, other = await table_and_first(player, rival)
    reader = await stream(f"/games/{game.pk}/stream", other)
    assert not (await reader.line())["your_move"]
    await play(game, first)
    state = await reader.until("gameState")
    assert state["your_move"] and state["you"] is not None and state["legal"]


async def test_chat_lines_come_to_a_reader(player: User, rival: User) -> None:
    game, first, token, _ = await table_and_first(player, rival)
    reader = await stream(f"/games/{game.pk}/stream", token)
    await reader.line()
    other = rival if first == player else player
    await database_sync_to_async(services.chat.say)(game, other, "Good luck!")
    line = await reader.until("chatLine")
    assert line["text"] == "Good luck!" and line["name"] == other.username


async def test_the_stream_ends_when_the_game_ends(player: User, rival: User) -> None:
    game, first, token, _ = await table_and_first(player, rival)
    reader = await stream(f"/games/{game.pk}/stream", token)
    await reader.line()
    await database_sync_to_async(services.resign)(game.pk, first)
    other = rival if first == player else player
    await database_sync_to_async(services.resign)(game.pk, other)
    end = await reader.until("end")
    assert end["why"] == "The game is over." and await reader.ended()


async def test_a_revoked_token_ends_its_stream(player: User, rival: User) -> None:
    game, first, token, _ = await table_and_first(player, rival)
    reader = await stream(f"/games/{game.pk}/stream", token)
    await reader.line()
    row = await database_sync_to_async(tokens.find)(token)
    assert row is not None
    await database_sync_to_async(tokens.revoke)(first.pk, row.pk)
    end = await reader.until("end")
    assert end["why"] == "This token was revoked." and await reader.ended()


async def test_the_drain_ends_a_stream_for_the_client_to_come_back(
    player: User, rival: User
) -> None:
    game, _, token, _ = await table_and_first(player, rival)
    reader = await stream(f"/games/{game.pk}/stream", token)
    await reader.line()
    [open_stream] = list(drain.STATE.sockets)
    await open_stream.restart()
    end = await reader.until("end")
    assert "restarts" in end["why"] and await reader.ended()
    assert not drain.STATE.sockets
    again = await stream(f"/games/{game.pk}/stream", token)
    assert (await again.line())["type"] == "gameFull"


async def test_a_token_opens_only_so_many_streams(player: User, rival: User, settings: Any) -> None:
    settings.STREAMS_PER_KEY = 2
    game, _, token, _ = await table_and_first(player, rival)
    readers = [await stream(f"/games/{game.pk}/stream", token) for _ in range(2)]
    for reader in readers:
        await reader.line()
    refused = await opened(f"/games/{game.pk}/stream", token)
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "Too many open streams for this token" in refused.json()["error"]


async def test_an_address_opens_only_so_many_streams(
    player: User, rival: User, settings: Any
) -> None:
    settings.STREAMS_PER_ADDRESS = 1
    settings.PROXY_COUNT = 1
    game, _, token, other = await table_and_first(player, rival)
    away = {"X-Forwarded-For": "203.0.113.7"}
    first = await opened(f"/games/{game.pk}/stream", token, **away)
    assert first.status_code == 200
    await Reader(aiter(first.streaming_content)).line()
    refused = await opened(f"/games/{game.pk}/stream", other, **away)
    assert refused.status_code == 429 and "from your address" in refused.json()["error"]


# --- refusals, read through the sync client (nothing streams there) ----------------------------


@pytest.mark.parametrize(
    ("path", "status"), [("/games/999999/stream", 404), ("/games/abc/stream", 400)]
)
def test_unknown_and_garbage_tables_are_refused(
    player: User, api_for: Callable[..., Api], path: str, status: int
) -> None:
    answer = api_for(player).get(path)
    assert answer.status_code == status and answer.json()["error"]


def test_a_seat_needs_the_scope_to_play(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    game = two_baker_table(player, rival)
    answer = api_for(player, ["account:read"]).get(f"/games/{game.pk}/stream")
    assert answer.status_code == 403 and "games:play" in answer.json()["error"]


def test_no_token_and_a_revoked_one_are_refused(player: User, rival: User) -> None:
    game = two_baker_table(player, rival)
    assert Api(None).get(f"/games/{game.pk}/stream").status_code == 401
    made = tokens.make(player.pk, "gone", list(tokens.SCOPES), None)
    tokens.revoke(player.pk, made.row.pk)
    refused = Api(made.token).get(f"/games/{game.pk}/stream")
    assert refused.status_code == 401 and "revoked" in refused.json()["error"]


def test_a_private_table_of_others_looks_missing(
    player: User, rival: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    game = two_baker_table(player, rival)
    Game.objects.filter(pk=game.pk).update(private=True)
    assert api_for(outsider).get(f"/games/{game.pk}/stream").status_code == 404


def test_a_watcher_gets_the_watchers_view_and_an_end_without_asgi(
    player: User, rival: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    game = two_baker_table(player, rival)
    answer = api_for(outsider).get(f"/games/{game.pk}/stream")
    lines = [json.loads(line) for line in b"".join(answer.streaming_content).splitlines()]
    assert lines[0]["type"] == "gameFull" and lines[0]["you"] is None
    assert lines[0]["view"] == game.spec.engine.view(state_of(game), None)
    assert lines[-1]["type"] == "end" and "WSGI" in lines[-1]["why"]


def test_a_stream_opened_a_hundred_times(
    player: User, rival: User, api_for: Callable[..., Api], settings: Any
) -> None:
    game = two_baker_table(player, rival)
    api = api_for(player)
    answers = [api.get(f"/games/{game.pk}/stream") for _ in range(100)]  # none read: all open
    assert [a.status_code for a in answers].count(200) == settings.STREAMS_PER_KEY
    refused = answers[-1]
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many open streams" in refused.json()["error"]


def test_the_streams_behind_their_tables_are_found_in_one_read(
    player: User, rival: User, django_assert_num_queries: Any
) -> None:
    """The process's watcher asks once for every open game stream (stream_watch.look)."""
    game = two_baker_table(player, rival)
    told, behind, gone = (GameFeed(player, pk, chat=False) for pk in (game.pk, game.pk, 10**9))
    told.version = game.version
    behind.version = game.version - 1
    with django_assert_num_queries(1):
        assert told.heal()([told, behind, gone]) == [False, True, True]


def test_a_stream_the_heal_found_behind_beats_on_the_version_it_read(
    player: User, rival: User, django_assert_num_queries: Any
) -> None:
    """The heal's one read gives each stream behind its version: its beat reads none of its own
    (the table itself is the process's shared read, made once)."""
    game = two_baker_table(player, rival)
    feed = GameFeed(player, game.pk, chat=False)
    assert shown(feed.first()[0])["version"] == game.version  # the table read once, kept
    feed.version = game.version - 1  # a version its group did not tell it
    assert feed.heal()([feed]) == [True]
    with django_assert_num_queries(0):
        lines = [shown(line) for line in feed.beat()]
    assert [(line["type"], line["version"]) for line in lines] == [("gameState", game.version)]
    with django_assert_num_queries(1):  # a beat no heal asked for reads the version itself
        assert feed.beat() == []


def test_a_stream_whose_table_went_ends_after_the_heal(player: User, rival: User) -> None:
    game = two_baker_table(player, rival)
    feed = GameFeed(player, game.pk, chat=False)
    feed.first()
    Game.objects.filter(pk=game.pk).delete()
    assert feed.heal()([feed]) == [True]
    assert feed.beat() == [] and feed.over() == game_stream.GAME_OVER


@database_sync_to_async
def status_at(game: Game, user: User) -> str:
    """What the table's page shows of this person: here, dropped or away."""
    return presence.read(game.pk).status(user.pk)


async def test_a_bot_account_with_its_game_stream_open_is_here_not_away(
    player: User, rival: User
) -> None:
    await database_sync_to_async(bots.upgrade)(rival)
    game, first, *tokens_of = await table_and_first(player, rival)
    token = tokens_of[0] if first == rival else tokens_of[1]
    assert await status_at(game, rival) == "away"
    reader = await stream(f"/games/{game.pk}/stream", token)
    await reader.line()
    assert await status_at(game, rival) == "here"
    for user in (player, rival):  # the game ends, and its stream with it
        await database_sync_to_async(services.resign)(game.pk, user)
    await reader.until("end")
    assert await reader.ended()
    assert await status_at(game, rival) == "dropped"  # as a page just closed


def shown(line: Said) -> dict[str, Any]:
    """A feed's line as its stream sends it, read back."""
    found: dict[str, Any] = json.loads(streams.encoded(line))
    return found


def test_watchers_lines_are_made_once_a_version_and_a_seats_for_its_own(
    player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = two_baker_table(player, rival)
    made: list[User] = []

    def counted(table: Any, user: User) -> Any:
        made.append(user)
        return table_out(table, user)

    monkeypatch.setattr(game_stream, "table_out", counted)
    watchers = [User.objects.create_user(f"watcher{n}") for n in range(3)]
    lines = [shown(GameFeed(w, game.pk, chat=False).table("gameFull")[0]) for w in watchers]
    assert lines[0] == lines[1] == lines[2] and lines[0]["you"] is None
    assert made == watchers[:1]  # one watcher's view for all of them
    # A seat's person's streams share their line; the other seat's person gets their own.
    mine = [shown(GameFeed(player, game.pk, chat=False).table("gameFull")[0]) for _ in range(2)]
    theirs = shown(GameFeed(rival, game.pk, chat=False).table("gameFull")[0])
    assert mine[0] == mine[1] and mine[0]["you"] is not None
    assert theirs["you"] is not None and theirs["you"] != mine[0]["you"]
    assert theirs["view"] != mine[0]["view"]  # each seat's view only
    assert made == [watchers[0], player, rival]
