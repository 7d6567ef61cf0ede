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


def test_bot_accounts_and_tokens_without_the_scope_are_refused(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    rival.plays_by_api = True
    rival.save()
    refused = api_for(rival).post("/pairing", SEEK)
    assert refused.status_code == 403 and "Bot accounts" in refused.json()["error"]
    assert api_for(player, ["account:read"]).post("/pairing", SEEK).status_code == 403
    assert not Seek.objects.exists()
