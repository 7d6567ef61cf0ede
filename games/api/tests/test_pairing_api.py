"""Quick pairing through the API: two people enter the same pool and the second is seated with
the first at once; leaving; the event stream keeps a seek; refusals in words."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import jsonschema_rs
import pytest
from pydantic import ValidationError

from accounts.models import User
from games import catalog
from games.api.event_stream import EventFeed
from games.api.pairing import Seeking
from games.api.tests.conftest import Api
from games.models import Game
from games.pairing import services as pairing
from games.pairing.models import Seek
from games.services import ServiceError

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
    feed.heal()([feed])  # the process's watcher, for all its event streams at once
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
    feed.heal()([feed])  # the process's watcher, for all its event streams at once
    assert Seek.objects.get().last_seen > old


def test_a_yes_or_no_that_is_not_true_or_false_is_refused(
    player: User, api_for: Callable[..., Api]
) -> None:
    refused = api_for(player).post("/pairing", {**SEEK, "bots_welcome": 0})
    assert refused.status_code == 400 and "bots_welcome" in refused.json()["error"]
    assert not Seek.objects.exists()


def taken(body: dict[str, Any]) -> bool:
    """Whether the pairing takes this body's seats (its fields' own rules, then the game's)."""
    try:
        seeking = Seeking.model_validate(body)
        pairing.check_search(seeking.kind, seeking.pace, seeking.fewest, seeking.most, None)
    except (ValidationError, ServiceError):
        return False
    return True


def test_the_schema_says_exactly_which_seats_each_game_takes() -> None:
    """Every count of seats the schema allows, the pairing takes, and every one it refuses, the
    pairing refuses in words: a client checking its body against the schema is never surprised
    (schemathesis: "a schema-valid request is accepted")."""
    schema = jsonschema_rs.Draft202012Validator(Seeking.model_json_schema())
    counts = [None, 1, 2, 3, 4, 5, 8, 9, 12, 13]
    for spec in catalog.available():
        for fewest, most in itertools.product(counts, counts):
            said = {"kind": spec.slug, "fewest": fewest, "most": most}
            body = {key: value for key, value in said.items() if value is not None}
            assert schema.is_valid(body) == taken(body), body
