"""The How to play pages of both games read in French and in German: no English left beyond the
games' proper names (cards, seats, the owl, ingredients, customers), and the numbers the rules
say, as they say them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engines.cakehalla.cards import CARDS, CUSTOMERS
from games.engines.midnight_bakery.cards import FACE_NAMES, OWL_NAME
from games.kinds.cakehalla.words import label
from tests.i18n.test_no_english_left import page_in, read
from tests.i18n.test_play_pages import left

pytestmark = pytest.mark.django_db

PROPER = {
    *FACE_NAMES.values(),
    OWL_NAME,
    "Peel",
    *(card.name for card in CARDS),
    *(customer.name for customer in CUSTOMERS),
    *(label(name) for name in ("sugar", "blueberry", "matcha", "cherry", "cocoa", "saffron")),
    "Gateau",
}
"""The games' own names, the same in every language (the boards name them so)."""
SAME = {"fr": {"Options", "Tartes", "Baguettes"}, "de": {"Tartes", "Baguettes"}}
"""Words French or German write as English does on these pages."""


def english_beyond_names(pages: dict[str, str], language: str) -> set[str]:
    """What reads alike in English and in the language once the proper names are taken out."""
    found = set()
    for piece in left(pages, language) - SAME[language]:
        rest = piece
        for name in sorted(PROPER, key=len, reverse=True):
            rest = rest.replace(name, "")
        if any(ch.isalpha() for ch in rest):
            found.add(piece)
    return found


@pytest.mark.parametrize("slug", ["midnight-bakery", "cakehalla"])
@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_rules_page_has_no_english_left(slug: str, language: str) -> None:
    path = reverse("games:rules", args=[slug])
    pages = {code: page_in(Client(), path, code) for code in ("en", language)}
    assert f'<html lang="{language}">' in pages[language]
    assert len(read(pages[language])) > 50  # the whole page was read
    assert english_beyond_names(pages, language) == set()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "Les deux pâtissiers à 3 truffes marquent 7 chacun"),
        ("de", "Die beiden Bäcker mit 3 Trüffeln bekommen je 7"),
    ],
)
def test_the_midnight_bakery_page_keeps_the_rules_numbers(language: str, said: str) -> None:
    body = page_in(Client(), reverse("games:rules", args=["midnight-bakery"]), language)
    assert said in body
    assert "totaux 68, 65 et 61" in body or "Summen 68, 65 und 61" in body


@pytest.mark.parametrize(
    ("language", "wants"),
    [("fr", "veut 3 Matcha, 3 Cherry et 3 Cocoa"), ("de", "will 3 Matcha, 3 Cherry und 3 Cocoa")],
)
def test_the_customers_list_says_what_each_wants_in_the_readers_language(
    language: str, wants: str
) -> None:
    body = page_in(Client(), reverse("games:rules", args=["cakehalla"]), language)
    assert wants in body  # Madame Macaron, the engine's own table
    assert body.count('class="tok tok-saffron"') >= 1 and "Cocoa Grand Gateau" in body
