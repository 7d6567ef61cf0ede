"""The API under ASGI, as Daphne serves it: a table read, a move made, and a person's games
streamed from the async export, chunk by chunk."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.http import StreamingHttpResponse
from django.test import AsyncClient

from accounts import tokens
from accounts.models import User
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


def bearer(user: User) -> dict[str, str]:
    return {"Authorization": f"Bearer {tokens.make(user.pk, 't', list(tokens.SCOPES), None).token}"}


def test_a_table_is_read_and_played_under_asgi(player: User, rival: User) -> None:
    game = two_baker_table(player, rival)
    headers = bearer(user_at(game, state_of(game).turn))
    client = AsyncClient()
    table = async_to_sync(client.get)(f"/api/games/{game.pk}", headers=headers).json()
    move = json.dumps({"action": table["legal"][0], "version": table["version"]})
    moved = async_to_sync(client.post)(
        f"/api/games/{game.pk}/move", move, content_type="application/json", headers=headers
    )
    assert moved.status_code == 200, moved.content
    assert moved.json()["version"] == table["version"] + 1


def test_your_games_stream_from_the_async_export(player: User) -> None:
    finished_game([player], "cakehalla")
    response = async_to_sync(AsyncClient().get)("/api/account/games", headers=bearer(player))
    assert isinstance(response, StreamingHttpResponse) and response.is_async

    async def body() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    [record] = [json.loads(line) for line in async_to_sync(body)().splitlines()]
    assert record["seats"]


def test_a_refusal_is_json_under_asgi(player: User) -> None:
    refused = async_to_sync(AsyncClient().get)("/api/account")
    assert refused.status_code == 401 and "needs a token" in refused.json()["error"]
