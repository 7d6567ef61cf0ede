"""Quick pairing through the API: two people enter the same pool and the second is seated with
the first at once; leaving; the event stream keeps a seek; refusals in words."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from accounts.models import User
from games.api.event_stream import EventFeed
from games.api.tests.conftest import Api
from games.models import Game
from games.pairing.models import Seek

pytestmark = pytest.mark.django_db

SEEK = {"kind": "cakehalla", "pace": "normal", "fewest": 2, "most": 2}


def test_two_people_are_paired(player: User, rival: User, api_for: Callable[..., Api]) -> None:
    first = api_for(player).post("/pairing", SEEK)
    assert first.status_code == 200, first.content
    assert first.json() == {"looking": True, "table": None}
    second = api_for(rival).post("/pairing", SEEK).json()
    assert not second["looking"] and second["table"]
    game = Game.objects.get(pk=second["table"])
    assert game.status == Game.Status.RUNNING and game.pace == "normal"
    assert set(game.seats.values_list("user_id", flat=True)) == {player.pk, rival.pk}
    assert not Seek.objects.exists()


def test_leaving(player: User, api_for: Callable[..., Api]) -> None:
    api = api_for(player)
    api.post("/pairing", SEEK)
    left = api.client.delete("/api/pairing", headers=api.headers)
    assert left.status_code == 200 and left.json()["looking"] is False
    assert not Seek.objects.exists()


def test_an_open_event_stream_keeps_the_seek(player: User, api_for: Callable[..., Api]) -> None:
    api_for(player).post("/pairing", SEEK)
    old = Seek.objects.get().last_seen - timedelta(minutes=5)
    Seek.objects.update(last_seen=old)
    feed = EventFeed(player)
    feed.first()
    feed.beat()
    assert Seek.objects.get().last_seen > old


@pytest.mark.parametrize(
    ("asked", "words"),
    [
        ({**SEEK, "kind": "chess"}, "not on offer"),
        ({**SEEK, "pace": "warp"}, "pace"),
        ({**SEEK, "fewest": 4, "most": 2}, "the fewest first"),
        ({**SEEK, "most": "many"}, "most"),
    ],
)
def test_bad_searches_are_refused(
    player: User, api_for: Callable[..., Api], asked: dict[str, object], words: str
) -> None:
    refused = api_for(player).post("/pairing", asked)
    assert refused.status_code == 400 and words in refused.json()["error"]
    assert not Seek.objects.exists()


def test_a_token_without_the_scope_is_refused(player: User, api_for: Callable[..., Api]) -> None:
    refused = api_for(player, ["account:read"]).post("/pairing", SEEK)
    assert refused.status_code == 403 and "games:play" in refused.json()["error"]
    assert not Seek.objects.exists()


def bot_account(name: str) -> User:
    return User.objects.create_user(username=name, plays_by_api=True)


def test_two_bot_accounts_are_paired(api_for: Callable[..., Api]) -> None:
    robo, droid = bot_account("robo"), bot_account("droid")
    bot_scopes = ["account:read", "bot:play"]
    assert api_for(robo, bot_scopes).post("/pairing", SEEK).json()["looking"] is True
    assert Seek.objects.get().bots_welcome  # a bot account's seek welcomes bots, unasked
    table = api_for(droid, bot_scopes).post("/pairing", SEEK).json()["table"]
    seated = Game.objects.get(pk=table).seats.values_list("user_id", flat=True)
    assert set(seated) == {robo.pk, droid.pk}


def test_a_bot_account_sits_only_with_people_who_welcome_bots(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    robo = bot_account("robo")
    assert api_for(player).post("/pairing", SEEK).json()["looking"] is True  # bots unwelcome
    assert api_for(robo).post("/pairing", SEEK).json()["looking"] is True
    assert Seek.objects.count() == 2 and not Game.objects.exists()
    welcoming = api_for(rival).post("/pairing", {**SEEK, "bots_welcome": True}).json()
    # the rival is paired with the person who waited longest and fits: the person, not the bot
    assert set(Game.objects.get(pk=welcoming["table"]).seats.values_list("user_id", flat=True)) == {
        player.pk,
        rival.pk,
    }
    third = User.objects.create_user(username="third")
    table = api_for(third).post("/pairing", {**SEEK, "bots_welcome": True}).json()["table"]
    seated = Game.objects.get(pk=table).seats.values_list("user_id", flat=True)
    assert set(seated) == {robo.pk, third.pk} and not Seek.objects.exists()


def test_an_open_event_stream_keeps_a_bot_accounts_seek(api_for: Callable[..., Api]) -> None:
    robo = bot_account("robo")
    api_for(robo).post("/pairing", SEEK)
    old = Seek.objects.get().last_seen - timedelta(minutes=5)
    Seek.objects.update(last_seen=old)
    feed = EventFeed(robo)
    feed.first()
    feed.beat()
    assert Seek.objects.get().last_seen > old


def test_a_yes_or_no_that_is_not_true_or_false_is_refused(
    player: User, api_for: Callable[..., Api]
) -> None:
    refused = api_for(player).post("/pairing", {**SEEK, "bots_welcome": 0})
    assert refused.status_code == 400 and "bots_welcome" in refused.json()["error"]
    assert not Seek.objects.exists()
