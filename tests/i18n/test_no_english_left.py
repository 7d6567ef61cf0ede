"""The site's chrome read in French and in German: no English left on its pages (beyond names).

Each page is read three times, as an English, a French and a German person sees it; a piece of
text (or a title, a label a screen reader hears) that reads the same in French or German as in
English is English left, unless it is a name or a word those languages write alike (SAME).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone, translation

from accounts.models import User
from bakery_site.unmarked import ReadText, has_words
from games.models import Game
from games.notifications.models import Notification
from games.notifications.services import tell_friend
from tests.conftest import client_for

NAMES = {
    "English",
    "Français",
    "Deutsch",
    "EN",
    "FR",
    "DE",
    "alice",
    "Midnight Bakery",
    "Cakehalla",
}
"""Names: the languages in the picker, the person, the games."""
SAME = {
    "fr": {
        "Invitations",
        "Bots",
        "Points",
        "Table",
        "Place",
        "Score",
        "Pages",
        "Site",
        "BOT",
        "bot",
        "minute",
        "minutes",
        "Minutes",
        "Format",
        "Normal",
    },
    "de": {"Lobby", "Bots", "BOT", "Tutorial", "offline", "Name", "Links", "Arena", "Format"},
}
"""Words French or German write as English does."""


ANYONE = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/sent/",
    "/accounts/password/reset/MQ/not-a-token/",
    "/leaderboards/",
    "/leaderboards/midnight-bakery/",
    "/leaderboards/cakehalla/",
    "/games/history/",
    "/stats/",
    "/no-such-page/",
    "/u/alice/",
]
SIGNED_IN = [
    "/",
    "/accounts/settings/",
    "/accounts/password/",
    "/accounts/password/done/",
    "/games/inbox/",
    "/accounts/settings/delete/",
    "/games/friends/",
    "/accounts/settings/tokens/",
    "/u/alice/",
    "/tournaments/",
]


def read(html: str) -> set[str]:
    """The pieces of the page a person reads or hears, each as written (spaces folded)."""
    reader = ReadText()
    reader.feed(html)
    reader.close()
    return {" ".join(piece.split()) for piece in reader.pieces if has_words(piece)}


def english_left(pages: Mapping[str, str], language: str) -> set[str]:
    """The pieces read alike in English and in the language, but names and words alike."""
    alike = read(pages[language]) & read(pages["en"])
    return {piece for piece in alike if has_words(without_names(piece, language))}


def without_names(piece: str, language: str) -> str:
    for word in sorted(NAMES | SAME[language], key=len, reverse=True):
        piece = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", "", piece)
    return piece


def page_in(client: Client, path: str, language: str) -> str:
    client.cookies["django_language"] = language
    return client.get(path).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ANYONE)
@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_page_anyone_sees_has_no_english_left(
    path: str, language: str, make_user: Callable[[str], User]
) -> None:
    make_user("alice")
    pages = {code: page_in(Client(), path, code) for code in ("en", language)}
    assert f'<html lang="{language}">' in pages[language]
    assert english_left(pages, language) == set(), sorted(english_left(pages, language))


@pytest.mark.django_db
@pytest.mark.parametrize("path", SIGNED_IN)
@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_signed_in_page_has_no_english_left(
    path: str, language: str, make_user: Callable[[str], User]
) -> None:
    alice = make_user("alice")
    pages = {}
    for code in ("en", language):
        alice.language = code
        alice.save(update_fields=["language"])
        pages[code] = client_for(alice).get(path).content.decode()
    assert english_left(pages, language) == set(), sorted(english_left(pages, language))


@pytest.mark.parametrize("template", ["500.html", "503.html"])
@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_error_pages_without_a_request_have_no_english_left(
    template: str, language: str
) -> None:
    pages = {}
    for code in ("en", language):
        with translation.override(code):
            pages[code] = render_to_string(template, {"words": ""})
    assert english_left(pages, language) == set(), sorted(english_left(pages, language))


@pytest.mark.django_db
def test_a_refused_post_says_so_in_the_readers_language() -> None:
    client = Client(enforce_csrf_checks=True)
    client.cookies["django_language"] = "de"
    answer = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert answer.status_code == 403
    page = answer.content.decode()
    assert '<html lang="de">' in page and "Dieses Formular ist zu alt" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"), [("de", "vor 2 Tagen"), ("fr", "il y a 2 jours"), ("en", "2 days ago")]
)
def test_the_inbox_says_when_in_the_readers_language(
    make_user: Callable[[str], User], language: str, said: str
) -> None:
    alice, carla = make_user("alice"), make_user("carla")
    alice.language = language
    alice.save(update_fields=["language"])
    tell_friend("asked", carla.pk, alice.pk, request=1)
    Notification.objects.update(created_at=timezone.now() - timedelta(days=2, minutes=1))
    assert Notification.objects.count() == 1
    page = client_for(alice).get("/games/inbox/").content.decode()
    assert f">{said}</time>" in page.replace("\xa0", " ")  # timesince keeps "2 days" together


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Nur die Mitspieler dürfen dieses Spiel ansehen"),
        ("fr", "Seuls les joueurs peuvent regarder cette partie"),
        ("en", "Only the players may watch this game"),
    ],
)
def test_a_refusal_says_its_sentence_in_the_readers_language(
    running_game: Game, outsider: User, language: str, said: str
) -> None:
    Game.objects.filter(pk=running_game.pk).update(watchers=Game.Watchers.PLAYERS)
    outsider.language = language
    outsider.save(update_fields=["language"])
    answer = client_for(outsider).get(running_game.get_absolute_url())
    assert answer.status_code == 403
    assert said in answer.content.decode()
