"""Sentences the Python code hands a person, said in their language: the pairing panel's counts
of bakers by each language's plural rule, a name refused, a table's stored notice told to each
reader in their own language (not frozen in the language of the move that wrote it)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
from django.utils import translation

from accounts.names import refusal
from games.models import Game
from games.pairing import shown
from games.pairing.panels import apart_words, bakers
from games.services.base import UNSTARTED, closed_reason, notice, notice_words
from games.services.unstarted import unstarted_words


@pytest.mark.parametrize(
    ("language", "counts", "said"),
    [
        ("fr", (1, 1), "1 boulanger"),
        ("fr", (3, 3), "3 boulangers"),
        ("fr", (2, 4), "de 2 à 4 boulangers"),
        ("de", (1, 1), "1 Bäcker"),
        ("de", (2, 4), "2 bis 4 Bäcker"),
        ("en", (1, 1), "1 baker"),
        ("en", (2, 4), "2 to 4 bakers"),
    ],
)
def test_the_pairing_panels_counts_of_bakers(
    language: str, counts: tuple[int, int], said: str
) -> None:
    with translation.override(language):
        assert bakers(*counts) == said


def waiting(apart: tuple[tuple[int, int, int], ...]) -> shown.Waiting:
    seek = SimpleNamespace(fewest=2, most=2)
    return shown.Waiting(cast(Any, seek), cast(Any, None), 0, 0, 0, 0, apart)


@pytest.mark.parametrize(
    ("language", "how_many", "wants"),
    [
        ("de", 1, ": 1 will 3 bis 4 Bäcker."),
        ("de", 2, ": 2 wollen 3 bis 4 Bäcker."),
        ("fr", 1, " : 1 veut de 3 à 4 boulangers."),
        ("fr", 3, " : 3 veulent de 3 à 4 boulangers."),
    ],
)
def test_why_nobody_is_seated_with_you_by_the_plural_of_those_who_want_more(
    language: str, how_many: int, wants: str
) -> None:
    with translation.override(language):
        said = apart_words(waiting(((3, 4, how_many),)))
    assert wants in said
    assert said.startswith({"de": "Niemand sonst", "fr": "Personne d\u2019autre"}[language])


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Dieser Name ist dem Haus vorbehalten."),
        ("fr", "Ce nom est réservé à la maison."),
    ],
)
def test_a_name_kept_for_the_house_is_refused_in_the_persons_language(
    language: str, said: str
) -> None:
    with translation.override(language):
        assert refusal("Bakehouse") == said


def test_a_name_of_dots_is_refused_in_german() -> None:
    with translation.override("de"):
        assert refusal("...") == (
            "Ein Benutzername darf nicht nur aus Punkten bestehen: Der Link zu seinem Profil "
            "würde nicht funktionieren."
        )


def test_a_stored_notice_is_told_to_each_reader_in_their_language() -> None:
    game = Game(notices=[])
    with translation.override("fr"):  # the move that writes it runs in its mover's language
        notice(
            game,
            "Time ran out for %(name)s: a stand-in played %(seat)s's move.",
            {"name": "alice", "seat": "Flour"},
        )
    (stored,) = game.notices
    assert stored["text"] == "Time ran out for alice: a stand-in played Flour's move."
    with translation.override("de"):
        said = notice_words(stored)
    assert (
        said == "Die Zeit von alice ist abgelaufen: Eine Vertretung hat den Zug von Flour gespielt."
    )
    assert notice_words({"text": "An old notice."}) == "An old notice."


def test_a_table_the_sweep_closed_says_why_in_the_readers_language() -> None:
    game = Game(notices=[], status=Game.Status.CANCELLED, pace=Game.Pace.NORMAL)
    notice(game, unstarted_words(game), mark=UNSTARTED)
    with translation.override("fr"):
        assert closed_reason(game) == (
            "Cette table est fermée : elle a attendu un jour et personne ne l\u2019a lanc\u00e9e."
        )
