"""Tournaments through the API: listed, entered, left; a private one only with its code; an
open event stream says its entrant is here; refusals in words that change nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.api.event_stream import EventFeed
from games.api.tests.conftest import Api
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_site_schedule(settings: object) -> None:
    settings.TOURNAMENT_SCHEDULE = []  # type: ignore[attr-defined]


def swiss(private: bool = False, bots_welcome: bool = False) -> Tournament:
    rules = services.Rules(
        name="API Swiss",
        kind="midnight-bakery",
        format="swiss",
        pace="day1",
        starts_at=timezone.now() + timedelta(hours=1),
        seats=3,
        rounds=3,
        private=private,
        bots_welcome=bots_welcome,
    )
    return services.create(None, rules)


def test_listed_entered_and_left(player: User, api_for: Callable[..., Api]) -> None:
    event = swiss()
    api = api_for(player)
    [listed] = api.get("/tournaments").json()
    assert listed["id"] == event.pk and not listed["you"] and listed["entrants"] == 0
    joined = api.post(f"/tournaments/{event.pk}/join", {})
    assert joined.status_code == 200 and "You are in API Swiss" in joined.json()["said"]
    [listed] = api.get("/tournaments").json()
    assert listed["you"] and listed["entrants"] == 1
    again = api.post(f"/tournaments/{event.pk}/join", {})
    assert again.status_code == 400 and "already" in again.json()["error"]
    left = api.post(f"/tournaments/{event.pk}/withdraw")
    assert left.status_code == 200 and "You left" in left.json()["said"]
    assert not Entrant.objects.exists()


def test_a_private_one_needs_its_code(player: User, api_for: Callable[..., Api]) -> None:
    event = swiss(private=True)
    api = api_for(player)
    assert api.get("/tournaments").json() == []
    assert api.post(f"/tournaments/{event.pk}/join", {}).status_code == 404
    assert api.post(f"/tournaments/{event.pk}/join", {"invite": "wrong"}).status_code == 404
    joined = api.post(f"/tournaments/{event.pk}/join", {"invite": event.invite})
    assert joined.status_code == 200
    assert [t["id"] for t in api.get("/tournaments").json()] == [event.pk]


def test_an_open_event_stream_says_the_entrant_is_here(player: User) -> None:
    event = swiss()
    services.join(event, player)
    Entrant.objects.update(seen_at=None)
    feed = EventFeed(player)
    feed.first()
    feed.heal()([feed])  # the process's watcher, for all its event streams at once
    assert Entrant.objects.get().seen_at is not None


def test_refusals(player: User, rival: User, api_for: Callable[..., Api]) -> None:
    event = swiss()
    rival.plays_by_api = True
    rival.save()
    bot = api_for(rival).post(f"/tournaments/{event.pk}/join", {})
    assert bot.status_code == 403 and "not open to bot accounts" in bot.json()["error"]
    assert (
        api_for(player, ["account:read"]).post(f"/tournaments/{event.pk}/join", {}).status_code
        == 403
    )
    assert api_for(player).post("/tournaments/999999/join", {}).status_code == 404
    out = api_for(player).post(f"/tournaments/{event.pk}/withdraw")
    assert out.status_code in (400, 403) and out.json()["error"]
    assert api_for(player).post(f"/tournaments/{event.pk}/join", raw="{nope").status_code == 400
    assert not Entrant.objects.exists()


def test_a_bot_account_enters_one_open_to_bots(rival: User, api_for: Callable[..., Api]) -> None:
    closed, open_to_bots = swiss(), swiss(bots_welcome=True)
    rival.plays_by_api = True
    rival.save()
    api = api_for(rival, ["account:read", "bot:play"])
    listed = {t["id"]: t["bots"] for t in api.get("/tournaments").json()}
    assert listed == {closed.pk: False, open_to_bots.pk: True}
    assert api.post(f"/tournaments/{closed.pk}/join", {}).status_code == 403
    joined = api.post(f"/tournaments/{open_to_bots.pk}/join", {})
    assert joined.status_code == 200 and "You are in API Swiss" in joined.json()["said"]
    assert list(Entrant.objects.values_list("tournament_id", "user_id")) == [
        (open_to_bots.pk, rival.pk)
    ]
    Entrant.objects.update(seen_at=None)
    feed = EventFeed(rival)  # its event stream says it is here, as a person's does
    feed.first()
    feed.heal()([feed])  # the process's watcher, for all its event streams at once
    assert Entrant.objects.get().seen_at is not None


def test_im_here_for_a_swiss_through_the_api(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    event = swiss()
    services.join(event, player)
    api = api_for(player)
    early = api.post(f"/tournaments/{event.pk}/here")
    assert early.status_code == 400 and "opens 5 minutes before the start" in early.json()["error"]
    assert Entrant.objects.get().checked_in_at is None
    Tournament.objects.update(starts_at=timezone.now() + timedelta(minutes=2))
    here = api.post(f"/tournaments/{event.pk}/here")
    assert here.status_code == 200
    assert here.json()["said"] == "Thank you: you are here for the next round of API Swiss."
    assert Entrant.objects.get().checked_in_at is not None
    outsider = api_for(rival).post(f"/tournaments/{event.pk}/here")
    assert outsider.status_code in (400, 403) and outsider.json()["error"]
    assert (
        api_for(player, ["account:read"]).post(f"/tournaments/{event.pk}/here").status_code == 403
    )
    assert Entrant.objects.count() == 1
