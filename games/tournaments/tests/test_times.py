"""Times in a person's own zone: the create form reads an exact start in the zone the browser
gives (tournament.js fills it; UTC without scripts) and stores it in UTC; each time a page
shows is a <time> its script rewrites in the browser's zone, written in UTC for a page without
scripts. (The browser's side: tests/e2e/test_tournament_times.py.)"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounts.models import User
from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.tests.conftest import rules
from games.tournaments.tests.test_create import made
from games.tournaments.tests.test_pages import text_of
from tests.conftest import client_for
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

pytestmark = pytest.mark.django_db

NEW_YORK = ZoneInfo("America/New_York")


def test_an_exact_start_is_read_in_the_browsers_zone_and_stored_in_utc(
    clock: Clock, crowd: Crowd
) -> None:
    (maker,) = crowd(1)
    there = (clock() + timedelta(days=2)).astimezone(NEW_YORK).replace(hour=9, minute=0)
    there = there.replace(second=0, microsecond=0)
    response = made(
        client_for(maker), starts_at=there.strftime("%Y-%m-%dT%H:%M"), zone="America/New_York"
    )
    assert response.status_code == 302
    stored = Tournament.objects.get().starts_at
    assert stored == there.astimezone(UTC)
    assert stored.astimezone(UTC).hour in (13, 14)  # 9:00 in New York (EDT or EST)


def test_without_a_zone_the_start_is_utc(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    start = (clock() + timedelta(days=2)).replace(hour=9, minute=0, second=0, microsecond=0)
    made(client_for(maker), starts_at=start.strftime("%Y-%m-%dT%H:%M"), zone="")
    assert Tournament.objects.get().starts_at == start


def test_a_forged_zone_is_refused_in_words_and_nothing_is_made(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    start = clock() + timedelta(days=2)
    response = made(
        client_for(maker), starts_at=start.strftime("%Y-%m-%dT%H:%M"), zone="Mars/Olympus"
    )
    assert response.status_code == 400
    words = text_of(response.content)
    assert "Your browser's time zone (Mars/Olympus) is not one the site knows: choose" in words
    assert not Tournament.objects.exists()
    # Not a dead end: a start from the list needs no zone.
    assert made(client_for(maker), starts_in="30", zone="Mars/Olympus").status_code == 302
    assert Tournament.objects.get().starts_at == clock() + timedelta(minutes=30)


def test_the_form_offers_the_zone_to_the_browser(crowd: Crowd) -> None:
    (maker,) = crowd(1)
    html = client_for(maker).get("/tournaments/").content.decode()
    assert 'type="hidden" name="zone"' in html and "data-browser-zone" in html
    assert "Or starts at (UTC)" in html  # what a page without scripts reads it in


def test_each_time_shown_is_a_time_the_script_can_rewrite_with_utc_words_meanwhile(
    clock: Clock, crowd: Crowd
) -> None:
    at = (clock() + timedelta(days=2)).replace(hour=21, minute=0, second=0, microsecond=0)
    tournament = services.create(None, rules(clock, starts_at=at))
    for url in (tournament.get_absolute_url(), "/tournaments/", "/"):
        html = client_for(crowd(1)[0]).get(url).content.decode()
        assert f'<time datetime="{at.isoformat()}" data-local="day">' in html, url
        assert "21:00 UTC</time>" in html, url
