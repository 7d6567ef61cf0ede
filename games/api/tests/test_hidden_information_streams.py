"""No hidden card in the game stream: a whole game of each kind played through the API while the
seat's stream and a watcher's are read, every line at the stored version read for the cards its
reader must not see (as test_hidden_information.py reads the other answers)."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games import services
from games.api.tests.conftest import Api
from games.api.tests.test_game_stream import Reader, stream, token_of
from games.api.tests.test_hidden_information import leaks
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def table_against_a_bot(kind: str, player: User) -> Game:
    game = services.create_game(player, kind, 2)
    services.add_bot(game, player, "greedy")
    services.start(game, player)
    game.refresh_from_db()
    return game


async def read_to(reader: Reader, version: int, game: Game, seat: int | None) -> dict[str, object]:
    """The reader's lines up to this version's (the stored one: nothing moves meanwhile), that
    one read for leaks; the line."""
    while True:
        line = await reader.line()
        if line["type"] == "chatLine":
            continue
        if line.get("version") == version or line["type"] == "end":
            text = str(line)
            assert not await database_sync_to_async(leaks)(text, game, seat)
            return line


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
async def test_a_whole_streamed_game_leaks_nothing(kind: str, player: User, outsider: User) -> None:
    game = await table_against_a_bot(kind, player)
    mine = await database_sync_to_async(token_of)(player)
    theirs = await database_sync_to_async(token_of)(outsider)
    api = Api(mine)
    seat_reader = await stream(f"/games/{game.pk}/stream", mine)
    watcher = await stream(f"/games/{game.pk}/stream", theirs)
    rng = random.Random(4)
    for moves in range(500):
        body = (await database_sync_to_async(api.get)(f"/games/{game.pk}")).json()
        seen = await read_to(seat_reader, body["version"], game, body["you"])
        if moves % 4 == 0 or body["status"] == "over":
            await read_to(watcher, body["version"], game, None)
        if body["status"] == "over":
            assert seen["status"] == "over" and (await seat_reader.line())["type"] == "end"
            return
        if not body["your_move"]:
            continue
        move = {"action": rng.choice(body["legal"]), "version": body["version"]}
        if body["moment"]:
            move["moment"] = body["moment"]
        moved = await database_sync_to_async(api.post)(f"/games/{game.pk}/move", move)
        assert moved.status_code == 200, moved.content
    raise AssertionError("the game did not end")
