"""Why a tournament stopped early is stored as a code and its values and said in each reader's
language (games/tournaments/reasons.py): on its page, in the notice to each entrant; the
migration that read the English stored before back into codes, a moderator's own words kept."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from games.notifications.models import Notification
from games.tournaments import reasons
from games.tournaments.models import Tournament
from games.tournaments.tests.conftest import swept
from games.tournaments.tests.test_absence import WAIT, fast_swiss
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

stored = importlib.import_module("games.tournaments.migrations.0007_stop_codes")

NOBODY = {"entrants": 5, "wait": 120}
TOO_FEW = {"came": 1, "entrants": 4, "fewest": 3, "wait": 90}
LATER = {"number": 3}


def said(language: str, code: str, values: dict[str, int]) -> str:
    with translation.override(language):
        return reasons.said(code, values)


def test_each_reason_reads_in_english_as_it_was_stored() -> None:
    assert said("en", reasons.NOBODY_CAME, NOBODY) == (
        "Nobody was here when it was due to start: none of its 5 entrants had a page of "
        'Bakehouse open or pressed "I\'m here" in the 2 minutes it waited.'
    )
    assert said("en", reasons.TOO_FEW_CAME, TOO_FEW) == (
        "Only 1 of its 4 entrants was here when it was due to start, fewer than the 3 a table "
        "needs, in the 90 seconds it waited."
    )
    assert said("en", reasons.TOO_FEW_CAME, {**TOO_FEW, "came": 2}).startswith(
        "Only 2 of its 4 entrants were here"
    )
    assert said("en", reasons.NOBODY_FOR_ROUND, LATER) == (
        "It ended after round 2: nobody was here for round 3."
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "fr",
            ("Personne n", "5 inscrits", "2 minutes", "Seul 1 de ses 4", "90 secondes", "ronde 3"),
        ),
        (
            "de",
            ("Niemand war", "5 Teilnehmern", "2 Minuten", "Nur 1 von 4", "90 Sekunden", "Runde 3"),
        ),
    ],
)
def test_each_reason_is_said_in_the_readers_language(language: str, words: tuple[str, ...]) -> None:
    text = " ".join(
        said(language, code, values)
        for code, values in [
            (reasons.NOBODY_CAME, NOBODY),
            (reasons.TOO_FEW_CAME, TOO_FEW),
            (reasons.NOBODY_FOR_ROUND, LATER),
        ]
    )
    for word in words:
        assert word in text
    for english in ("Nobody", "entrants", "waited", "round", "was here"):
        assert english not in text


def test_the_stored_english_is_read_back_into_codes_and_a_moderators_words_kept() -> None:
    for code, values in [
        (reasons.NOBODY_CAME, NOBODY),
        (reasons.TOO_FEW_CAME, TOO_FEW),
        (reasons.TOO_FEW_CAME, {**TOO_FEW, "came": 2}),
        (reasons.NOBODY_FOR_ROUND, LATER),
    ]:
        assert stored.code_of(said("en", code, values)) == (code, values)
    assert stored.code_of("Spam.") is None
    assert stored.code_of("Nobody was here, the venue burnt down.") is None


@pytest.mark.django_db
def test_a_swiss_nobody_came_to_reads_in_each_readers_language(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    for person, language in zip(people, ["de", "fr", "en"], strict=True):
        person.language = language
        person.save(update_fields=["language"])
    tournament = fast_swiss(clock, people)
    clock.forward(61)
    swept(tournament)
    clock.forward(WAIT + 1)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    assert (tournament.stop_code, tournament.stop_reason) == (reasons.NOBODY_CAME, "")
    notices = {
        p.language: Notification.objects.filter(recipient=p, text__contains="Test Swiss")
        .order_by("pk")
        .values_list("text", flat=True)
        .last()
        for p in people
    }
    assert notices["de"] is not None and "Niemand war" in notices["de"]
    assert notices["fr"] is not None and "Personne n" in notices["fr"]
    assert notices["en"] == "Test Swiss was cancelled. " + tournament.reason
    page = Client(headers={"accept-language": "de"}).get(tournament.get_absolute_url())
    assert "Niemand war" in page.content.decode()
    assert "Nobody was here" not in page.content.decode()


@pytest.mark.django_db
def test_the_migration_turns_english_rows_to_codes(clock: Clock, crowd: Crowd) -> None:
    from django.apps import apps

    old = fast_swiss(clock, crowd(2))
    typed = fast_swiss(clock, crowd(2))
    Tournament.objects.filter(pk=old.pk).update(
        stop_reason=said("en", reasons.NOBODY_FOR_ROUND, LATER)
    )
    Tournament.objects.filter(pk=typed.pk).update(stop_reason="Spam.")
    stored.to_codes(apps, None)
    old.refresh_from_db()
    typed.refresh_from_db()
    assert (old.stop_code, old.stop_values, old.stop_reason) == (
        reasons.NOBODY_FOR_ROUND,
        LATER,
        "",
    )
    assert (typed.stop_code, typed.stop_reason) == ("", "Spam.")
    stored.to_english(apps, None)
    old.refresh_from_db()
    assert old.stop_reason == "It ended after round 2: nobody was here for round 3."
