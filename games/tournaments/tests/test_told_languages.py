"""What a tournament tells its people is made in each one's saved language (Words told through
notifications.tell: the moderators' removals and stops, a cancel for too few, the final place)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.notifications.models import Notification
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.services.moderation import remove, stop
from games.tournaments.tests.conftest import entered, rules, swept
from games.tournaments.tests.test_absence import WAIT, fast_swiss
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]


def speaking(people: list[User], languages: list[str]) -> None:
    for person, language in zip(people, languages, strict=True):
        person.language = language
        person.save(update_fields=["language"])


def told(user: User) -> list[str]:
    rows = Notification.objects.filter(recipient=user, kind="tournament").order_by("pk")
    return list(rows.values_list("text", flat=True))


@pytest.mark.django_db
def test_a_cancel_for_too_few_is_told_in_each_ones_language(clock: Clock, crowd: Crowd) -> None:
    creator, only = crowd(2)
    speaking([creator, only], ["de", "fr"])
    tournament = entered(services.create(creator, rules(clock)), [only])
    clock.forward(61)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    assert told(creator) == [
        "Test Swiss wurde abgesagt: Nur 1 der 3 Personen, die ein Tisch braucht, ist beigetreten."
    ]
    assert told(only) == [
        "Test Swiss commence dans 5 minutes.",
        "Test Swiss a \u00e9t\u00e9 annul\u00e9 : 1 personne seulement s\u2019est inscrite sur "
        "les 3 qu\u2019il faut \u00e0 une table.",
    ]


@pytest.mark.django_db
def test_a_moderators_removal_and_stop_are_told_in_each_ones_language(
    clock: Clock, crowd: Crowd, moderator: User
) -> None:
    people = crowd(3)
    speaking(people, ["de", "fr", "en"])
    tournament = entered(services.create(None, rules(clock)), people)
    clock.forward(61)
    tournament = swept(tournament)
    remove(Entrant.objects.get(tournament=tournament, user=people[0]), moderator, "Cheating.")
    stop(tournament, moderator, "Spam.")
    assert "Ein Moderator hat dich aus Test Swiss entfernt." in told(people[0])
    assert "Un mod\u00e9rateur a arr\u00eat\u00e9 Test Swiss : Spam." in told(people[1])
    assert "A moderator stopped Test Swiss: Spam." in told(people[2])


@pytest.mark.django_db
def test_the_away_and_the_seated_are_told_in_their_language(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    tournament = fast_swiss(clock, people, rounds=3)
    here, away = people[:2], people[2]
    speaking([away, here[0]], ["de", "fr"])
    clock.forward(61)
    for person in here:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    assert told(away)[-1].startswith("Runde 1 von Test Swiss beginnt in h\u00f6chstens ")
    clock.forward(WAIT)
    for person in here:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    assert tournament.current_round == 1
    assert told(away)[-1] == (
        "Runde 1 von Test Swiss hat ohne dich begonnen: Du schienst nicht da zu sein. Sei zu "
        "Runde 2 da (eine offene Seite oder \u201eIch bin da\u201c): Zwei verpasste Runden "
        "hintereinander nehmen dich aus dem Turnier."
    )
    assert not any("Round" in words for words in told(away))
    assert "La ronde 1 de Test Swiss est pr\u00eate." in told(here[0])
    assert "Round 1 of Test Swiss is ready." in told(here[1])
