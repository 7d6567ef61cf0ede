"""Challenges through the API: made, listed, accepted into a dealt table, declined, cancelled;
every refusal a sentence that changes nothing; the event stream tells each side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import Block, User
from games.api.tests.conftest import Api
from games.api.tests.test_game_stream import stream, token_of
from games.challenges import services as challenges
from games.challenges.models import Challenge

ASK = {"kind": "cakehalla", "players": 2, "pace": "relaxed", "rated": True}


@pytest.mark.django_db
def test_a_challenge_made_accepted_and_played(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    rival.plays_by_api = True
    rival.save()
    made = api_for(player).post(f"/challenge/{rival.username}", ASK)
    assert made.status_code == 200, made.content
    body = made.json()
    assert body["status"] == "open" and body["challenged"] == rival.username
    bot = api_for(rival, ["bot:play"])
    assert [c["id"] for c in bot.get("/challenges").json()] == [body["id"]]
    accepted = bot.post(f"/challenge/{body['id']}/accept").json()
    assert accepted["status"] == "accepted" and accepted["game"]
    table = bot.get(f"/games/{accepted['game']}").json()
    assert table["status"] == "running" and table["you"] is not None


@pytest.mark.django_db
def test_declined_and_cancelled(
    player: User, rival: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    first = api_for(player).post(f"/challenge/{rival.username}", ASK).json()
    assert api_for(rival).post(f"/challenge/{first['id']}/decline").json()["status"] == "declined"
    second = api_for(player).post(f"/challenge/{outsider.username}", ASK).json()
    assert api_for(player).post(f"/challenge/{second['id']}/cancel").json()["status"] == "cancelled"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "asked", "status", "words"),
    [
        ("nobody-here", ASK, 404, "nobody called"),
        ("alice", ASK, 400, "yourself"),
        ("bob", {**ASK, "kind": "chess"}, 400, "not on offer"),
        ("bob", {**ASK, "players": 7}, 400, "seats"),
        ("bob", {**ASK, "players": "two"}, 400, "players"),
        ("bob", {**ASK, "pace": "warp"}, 400, "no pace"),
    ],
)
def test_bad_challenges_are_refused_in_words(
    player: User,
    rival: User,
    api_for: Callable[..., Api],
    name: str,
    asked: dict[str, object],
    status: int,
    words: str,
) -> None:
    assert (player.username, rival.username) == ("alice", "bob")
    refused = api_for(player).post(f"/challenge/{name}", asked)
    assert refused.status_code == status and words in refused.json()["error"]
    assert not Challenge.objects.exists()


@pytest.mark.django_db
def test_refusals_of_the_answers(
    player: User, rival: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    made = api_for(player).post(f"/challenge/{rival.username}", ASK).json()
    assert api_for(outsider).post(f"/challenge/{made['id']}/accept").status_code == 404
    assert api_for(player).post(f"/challenge/{made['id']}/accept").status_code == 403
    assert api_for(rival, ["chat:read"]).post(f"/challenge/{made['id']}/accept").status_code == 403
    assert api_for(rival).post("/challenge/999999/accept").status_code == 404
    assert Challenge.objects.get().status == "open"
    Block.objects.create(blocker=rival, blocked=player)
    refused = api_for(player).post(f"/challenge/{outsider.username}", {**ASK, "players": 1})
    assert refused.status_code == 400


@pytest.mark.django_db(transaction=True)
async def test_the_event_streams_tell_both_sides(player: User, rival: User) -> None:
    theirs = await stream("/stream/event", await database_sync_to_async(token_of)(rival))
    mine = await stream("/stream/event", await database_sync_to_async(token_of)(player))
    made = await database_sync_to_async(challenges.challenge)(
        player, rival.username, "cakehalla", 2, "relaxed", False
    )
    told = await theirs.until("challenge")
    assert told["challenge"]["id"] == made.pk and told["challenge"]["challenger"] == "alice"
    await database_sync_to_async(challenges.accept)(made.pk, rival)
    said: dict[str, dict[str, Any]] = {}
    while len(said) < 2:  # the table's deal and the answer, in the order they committed
        line = await mine.line()
        said[line["type"]] = line
    assert said["challengeAccepted"]["challenge"]["game"] == said["gameStart"]["id"]
    started = said["gameStart"]
    assert (await theirs.until("gameStart"))["id"] == started["id"]
