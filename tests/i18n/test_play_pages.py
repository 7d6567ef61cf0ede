"""The pages people meet in play read in French and in German: no English left (beyond names).

Each page is read as an English and as a French or German person sees it (test_no_english_left:
english_left). A table's and a replay's board are the boards' own Jinja regions, read in every
language by tests/i18n's board tests: here they are left out (BOARD), so what is read is the page
around them; and so is a <time data-local>'s text, which static/js/local-time.js writes in the
browser's own language (its UTC words are for a page without scripts).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from accounts.models import User
from accounts.words import hours_words
from bakery_site.unmarked import has_words
from games import catalog
from games.models import Game
from games.services import chat, clocks
from games.tournaments import services as tournaments
from games.tournaments.models import Tournament
from games.tournaments.tests.conftest import entered, rules
from games.vacation.services import take_vacation
from tests.conftest import client_for
from tests.i18n.test_no_english_left import ReadText, english_left, read
from tests.support.clock import Clock
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db

PEOPLE = ("alice", "bob", "carol", "greedy-bot-1")
SAME = {"fr": {"Message", "Tables", "Buchholz"}, "de": {"Buchholz", "Live."}}
"""Words French or German write as English does, beyond test_no_english_left's (Buchholz: a
tie-break named after its inventor)."""
BOARD = {"live", "replay-board", "hands"}
"""Ids and classes of what the page holds but does not write: the board's regions (the boards'
Jinja templates) and a replay's hands."""
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class ReadAround(ReadText):
    """ReadText, but nothing inside a BOARD element or a <time data-local>."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # open elements since the one left out began (0: reading)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        names = {values.get("id") or ""} | set((values.get("class") or "").split())
        if self.depth:
            self.depth += tag not in VOID
        elif names & BOARD or (tag == "time" and "data-local" in values):
            self.depth = 1
        else:
            super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1
        else:
            super().handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if not self.depth:
            super().handle_data(data)


def around(html: str) -> str:
    """The page's text outside the board, as one HTML text for english_left to read again."""
    reader = ReadAround()
    reader.feed(html)
    reader.close()
    return "\n".join(f"<p>{piece}</p>" for piece in reader.pieces if has_words(piece))


def names_and_game_words() -> list[str]:
    """The people, the games' seats (proper names), and a game's lobby options, English until
    the kinds mark them: named here from their sources, so nothing else can hide behind them."""
    words = set(PEOPLE)
    for spec in catalog.available():
        words |= set(spec.seat_names)
        for option in spec.options:
            words |= {option.label, *(label for _, label in option.choices)}
    return sorted(words, key=len, reverse=True)


def left(pages: Mapping[str, str], language: str) -> set[str]:
    """English left on the page beyond names and the games' own words."""
    found = english_left({code: around(html) for code, html in pages.items()}, language)
    kept = set()
    for piece in found - SAME[language]:
        rest = piece
        for word in names_and_game_words():
            rest = rest.replace(word, "")
        if has_words(rest):
            kept.add(piece)
    return kept


def pages_of(user: User, path: str, language: str) -> dict[str, str]:
    pages = {}
    for code in ("en", language):
        user.language = code
        user.save(update_fields=["language"])
        pages[code] = client_for(user).get(path).content.decode()
    return pages


@pytest.fixture
def tables(
    running_game: Game, outsider: User, bots_inline: None, player: User, rival: User
) -> dict[str, Game]:
    """A running night of alice and bob (a chat line of bob's, muted by alice), carol's finished
    game against a bot, and alice's vacation."""
    chat.say(running_game, rival, "bonsoir")
    chat.mute(player, rival, running_game.pk)
    take_vacation(player, clocks.now().date(), 3)
    return {"running": running_game, "finished": finished_game([outsider])}


@pytest.fixture
def tournament(player: User, rival: User, clock: Clock) -> Tournament:
    """A Swiss tournament alice and bob have entered, not started yet."""
    return entered(tournaments.create(None, rules(clock)), [player, rival])


PAGES = [
    "/games/new/",
    "/games/mine/",
    "/games/{running}/",
    "/games/{running}/report/",
    "/games/{running}/replay/",
    "/games/{running}/chat/log/",
    "/games/{finished}/replay/",
    "/games/live/",
    "/games/vacation/",
    "/stats/cakehalla/",
    "/games/{finished}/review/",
    "/games/{finished}/review/0/",
    "/tournaments/{tournament}/?part=live",
    "/tournaments/{tournament}/?part=you",
]
"""The pages of play, and a tournament's live part and the person's line as its page and socket
show them (the rest of a tournament's page reads its rules and form from Python, still English:
games/tournaments/rules.py, forms.py)."""


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_play_page_has_no_english_left(
    path: str, language: str, tables: dict[str, Game], tournament: Tournament, player: User
) -> None:
    url = path.format(tournament=tournament.pk, **{name: game.pk for name, game in tables.items()})
    pages = pages_of(player, url, language)
    assert len(read(around(pages[language]))) > 2  # the page was read, not an empty one
    assert left(pages, language) == set()


def test_the_table_page_words_are_in_the_readers_language(
    tables: dict[str, Game], player: User
) -> None:
    pages = pages_of(player, f"/games/{tables['running'].pk}/", "de")
    assert "Tisch-Chat" in pages["de"] and "Einen Spieler melden" in pages["de"]
    assert "Table chat" in pages["en"] and "Report a player" in pages["en"]


def test_the_chat_log_names_what_alice_muted_in_her_language(
    tables: dict[str, Game], player: User
) -> None:
    pages = pages_of(player, f"/games/{tables['running'].pk}/chat/log/", "fr")
    assert "Masqués par vous :" in pages["fr"] and "Réafficher" in pages["fr"]


class Waiting:
    """A table waiting on the reader's move, as games/web/yours.py hands it to the template."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.time_left = ""


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_next_game_line_and_the_refusal_page_have_no_english_left(
    language: str, tables: dict[str, Game], player: User
) -> None:
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    contexts: list[tuple[str, dict[str, object]]] = [
        ("games/_next_game.html", {"next_table": Waiting(tables["running"])}),
        ("games/_next_game.html", {"shown": True}),
        ("games/_next_game.html", {"next_table": Waiting(tables["running"]), "your_move_here": 1}),
        ("games/refused.html", {"message": ""}),
    ]
    for template, context in contexts:
        pages = {}
        for code in ("en", language):
            with translation.override(code):
                pages[code] = render_to_string(template, context, request=request)
        assert read(pages[language]), template
        assert left(pages, language) == set(), template


@pytest.mark.parametrize(("language", "said"), [("fr", "2 jours"), ("de", "2 Tage")])
def test_the_vacation_days_left_are_said_in_the_readers_language(language: str, said: str) -> None:
    with translation.override(language):
        assert hours_words(48) == said
    with translation.override("en"):
        assert hours_words(49) == "2 days and 1 hour"
        assert hours_words(0) == "0 days"
