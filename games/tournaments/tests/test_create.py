"""Making a tournament from the list page: every field checked, each wrong or forged value
refused in words, and nothing made."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.services.creation import MOST_WAITING
from games.tournaments.tests.conftest import rules
from games.tournaments.tests.test_pages import text_of
from tests.conftest import client_for
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

pytestmark = pytest.mark.django_db

GOOD: dict[str, Any] = {
    "name": "Friday Swiss",
    "kind": "cakehalla",
    "format": "swiss",
    "pace": "normal",
    "seats": "3",
    "fewest": "",
    "rounds": "4",
    "minutes": "",
    "starts_in": "15",
    "starts_at": "",
    "place_points": "",
    "bye": "points",
    "streak_bonus": "2",
    "rating_min": "",
    "rating_max": "",
    "games_min": "0",
    "age_min_days": "0",
    "max_entrants": "",
}


def made(client: Any, **changes: Any) -> Any:
    """Post the form with these changes."""
    return client.post("/tournaments/new/", {**GOOD, **changes})


def test_a_person_makes_a_swiss_with_its_settings(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    at = clock()
    response = made(
        client_for(maker),
        place_points="3: 5/2/0",
        rating_min="1000",
        rating_max="2000",
        games_min="3",
        age_min_days="7",
        max_entrants="30",
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    assert (tournament.name, tournament.kind, tournament.format) == (
        "Friday Swiss",
        "cakehalla",
        "swiss",
    )
    assert (tournament.seats, tournament.fewest, tournament.rounds) == (3, 3, 4)
    assert tournament.place_points == {"3": [5.0, 2.0, 0.0]}
    assert (tournament.rating_min, tournament.rating_max, tournament.games_min) == (1000, 2000, 3)
    assert (tournament.age_min_days, tournament.max_entrants) == (7, 30)
    assert tournament.starts_at == at + timedelta(minutes=15)
    assert tournament.creator == maker and not tournament.private and not tournament.bots_welcome
    page = text_of(client_for(maker).get(tournament.get_absolute_url()).content)
    assert "At a table of 3: 5/2/0 (set by its creator)" in page
    assert "Needs a Cakehalla rating from 1000 to 2000, 3 rated games of Cakehalla" in page


def test_a_private_arena_is_made_and_its_maker_sent_to_its_link(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    response = made(
        client_for(maker),
        format="arena",
        pace="fast",
        minutes="30",
        rounds="",
        private="on",
        streak_bonus="3",
    )
    tournament = Tournament.objects.get()
    assert tournament.private and tournament.is_arena and tournament.minutes == 30
    assert tournament.streak_bonus == 3 and tournament.rounds is None
    assert response["Location"] == tournament.invite_url


def test_a_tournament_open_to_bot_accounts_says_so(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    assert "Open to bot accounts" in text_of(client_for(maker).get("/tournaments/").content)
    made(client_for(maker), bots_welcome="on")
    tournament = Tournament.objects.get()
    assert tournament.bots_welcome
    page = text_of(client_for(maker).get(tournament.get_absolute_url()).content)
    assert "bots welcome" in page and "Open to everyone with an account. Bot accounts may" in page


def test_an_exact_start_time_in_utc_is_taken(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    start = (clock() + timedelta(days=2)).replace(second=0, microsecond=0)
    made(client_for(maker), starts_at=start.strftime("%Y-%m-%dT%H:%M"))
    assert Tournament.objects.get().starts_at == start


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"name": ""}, "Give the tournament a name."),
        ({"name": "x" * 101}, "A name is at most 100 characters."),
        ({"kind": "chess"}, "That game is not on offer."),
        ({"format": "knockout"}, "A tournament is a Swiss or an arena."),
        ({"pace": "blitz"}, "There is no such pace."),
        ({"seats": "9"}, "Table size: a whole number from 2 to 8."),
        ({"seats": "three"}, "Table size: a whole number from 2 to 8."),
        ({"seats": "5"}, "Cakehalla tables seat 2 to 4 people"),
        ({"fewest": "4"}, "the fewest at a table is no more than the table size"),
        ({"rounds": ""}, "Say how many rounds the Swiss plays."),
        ({"rounds": "21"}, "Rounds: a whole number from 1 to 20."),
        ({"rounds": "-1"}, "Rounds: a whole number from 1 to 20."),
        ({"format": "arena", "minutes": ""}, "Say how many minutes the arena lasts."),
        ({"format": "arena", "minutes": "5"}, "Minutes: a whole number from 10 to 1440."),
        ({"format": "arena", "minutes": "30", "pace": "day1"}, "An arena is played live"),
        ({"starts_in": "3"}, "Choose a start from the list."),
        ({"starts_at": "tomorrow"}, "Write the start as a date and a time"),
        ({"starts_at": "2001-01-01T10:00"}, "The start time has passed"),
        ({"starts_at": "2099-01-01T10:00"}, "A tournament starts within 30 days."),
        ({"place_points": "3: 6/3"}, "a table of 3 needs 3 numbers"),
        ({"place_points": "4: 6/4/2/0"}, "this tournament seats tables of 3 to 3, not 4"),
        ({"place_points": "3: 0/3/6"}, "A better place never earns fewer points."),
        ({"place_points": "3: 600/3/0"}, "Points by place are numbers from 0 to 100."),
        ({"place_points": "three: 6/3/0"}, "write each line as a table size"),
        ({"place_points": "3: a/b/c"}, "the points at a table of 3 are numbers"),
        ({"bye": "cake"}, "A bye is points or a house bot's seat."),
        ({"streak_bonus": "11"}, "Streak bonus (arena): a whole number from 0 to 10."),
        ({"rating_min": "2000", "rating_max": "1000"}, "The lowest rating allowed is above"),
        ({"rating_min": "-5"}, "Lowest rating: a whole number from 0 to 4000."),
        ({"games_min": "many"}, "Rated games played: a whole number from 0 to 10000."),
        ({"age_min_days": "99999"}, "Account age in days: a whole number from 0 to 3650."),
        ({"max_entrants": "1"}, "Most entrants: a whole number from 2 to 10000."),
        ({"max_entrants": "2"}, "A tournament must take at least 3 people."),
    ],
)
def test_a_wrong_or_forged_setting_is_refused_in_words_and_nothing_is_made(
    crowd: Crowd, changes: dict[str, str], words: str
) -> None:
    (maker,) = crowd(1)
    response = made(client_for(maker), **changes)
    assert response.status_code == 400
    assert words in text_of(response.content)
    assert not Tournament.objects.exists()


def test_someone_logged_out_cannot_make_one(crowd: Crowd) -> None:
    response = made(client_for(None))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Tournament.objects.exists()


def test_a_person_keeps_at_most_three_tournaments_waiting(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    for n in range(MOST_WAITING):
        services.create(maker, rules(clock, name=f"Mine {n}"))
    response = made(client_for(maker))
    assert response.status_code == 400
    assert "You have 3 tournaments waiting to start already" in text_of(response.content)
    assert Tournament.objects.count() == MOST_WAITING
