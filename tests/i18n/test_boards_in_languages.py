"""The boards in each person's language: a Midnight Bakery night read in French and German has no
English left on its board beyond names; the shared renders are kept per language, never handed
across; a table's socket speaks its person's language, two people at one table each their own."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from accounts.languages import language_of_socket
from accounts.models import User
from games import services
from games.boards import render_board
from games.boards.render import region_names, region_template, render_whole
from games.boards.renders import render_counts, wordless
from games.engines.cakehalla.cards import CARDS, CUSTOMERS, TOKEN_NAMES
from games.engines.midnight_bakery.cards import FACE_NAMES, OWL_NAME, SEAT_NAMES
from games.kinds.cakehalla.kind import Cakehalla
from games.models import Game
from tests.boards.test_region_changes import someone_moves, table
from tests.i18n.test_no_english_left import read, without_names
from tests.support.sockets import socket, stored_version

BOARD_NAMES = {*FACE_NAMES.values(), *SEAT_NAMES, OWL_NAME, "JSON", "Baker's Peel", "Peel"}
"""The game's own names, which stay as they are in every language (the rules pages name the
cards and seats so): the cards, the seats, the owl."""
CAKEHALLA_NAMES = {
    *(c.name for c in CARDS),
    *(c.name for c in CUSTOMERS),
    *(n.capitalize() for n in TOKEN_NAMES),
    *Cakehalla.seat_names,
    "JSON",
}
"""Cakehalla's own names: its cards, customers, ingredients, tiers and seats."""
BOARD_SAME = {
    "fr": {
        *("Total", "Croissants", "Macarons", "Baguettes", "pt", "pts", "Score", "Pts", "table"),
        *("Scores", "Piles", "point", "points"),
    },
    "de": {"Croissants", "Macarons", "Baguettes", "Tartes", "Score"},
}
"""Words French or German write as English does on a board."""


def english_on_board(
    boards: dict[str, str], language: str, people: set[str], names: set[str] = BOARD_NAMES
) -> set[str]:
    """The pieces of a board read alike in English and in the language, but names and words
    alike (the games' own names, the people's, the words these languages share)."""
    alike = read(boards[language]) & read(boards["en"])
    left = set()
    for piece in alike:
        if piece.startswith("/"):
            continue  # a link's address shown as it is (the invite link)
        for name in sorted(names | people | BOARD_SAME[language], key=len, reverse=True):
            piece = piece.replace(name, "")
        rest = without_names(piece, language)
        if any(ch.isalpha() for ch in rest):
            left.add(piece)
    return left


def seated(game: Game) -> set[str]:
    """The names of everyone seated, the house bots too."""
    return {s.user.username for s in game.seats.select_related("user") if s.user is not None}


def boards_of(game: Game, viewer: User | AnonymousUser, language: str) -> dict[str, str]:
    """The whole board for this viewer in English and in the language."""
    game.refresh_from_db()
    out = {}
    for code in ("en", language):
        with translation.override(code):
            out[code] = render_board(game, viewer)
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_whole_night_on_the_board_has_no_english_left(
    language: str, make_user: Callable[[str], User], bots_inline: None
) -> None:
    people = [make_user("alice"), make_user("bob")]
    waiting = services.create_game(people[0], "midnight-bakery", 3)
    names = {"alice", "bob"}
    left = english_on_board(boards_of(waiting, people[0], language), language, names)
    left |= english_on_board(boards_of(waiting, AnonymousUser(), language), language, names)
    game = table("midnight-bakery", people, 1, seed=29)
    names = seated(game)
    rng = random.Random(29)
    moves = 0
    while True:
        if moves % 2 == 0:
            for viewer in (people[0], AnonymousUser()):
                left |= english_on_board(boards_of(game, viewer, language), language, names)
        if not someone_moves(game, people, rng):
            break
        moves += 1
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    for viewer in (people[0], AnonymousUser()):
        left |= english_on_board(boards_of(game, viewer, language), language, names)
    assert left == set(), "|".join(sorted(left))


@pytest.mark.django_db
def test_a_region_is_rendered_once_per_language_and_never_handed_across(
    running_game: Game, outsider: User, make_user: Callable[[str], User]
) -> None:
    other = make_user("dora")

    def whole(viewer: User, code: str) -> tuple[str, int]:
        before = render_counts["shared"]
        with translation.override(code):
            html, _ = render_whole(running_game, viewer)
        return html, render_counts["shared"] - before

    german, _ = whole(outsider, "de")
    french, shared_fr = whole(other, "fr")
    no_words = [n for n in region_names(running_game) if wordless(region_template(running_game, n))]
    assert no_words == ["version"]  # the one region that says the same in every language
    assert shared_fr == len(no_words), "nothing with words of the German render reached the French"
    assert "Stand der Nacht" in german and "Où en est la nuit" in french
    again, shared_de = whole(other, "de")
    assert shared_de > 0 and again == german  # a second German spectator shares the first's
    english, _ = whole(outsider, "en")
    assert "Where the night stands" in english and "Stand der Nacht" not in english


@pytest.mark.django_db
def test_a_sockets_language_is_the_saved_choice_then_the_cookie_then_the_browsers(
    player: User,
) -> None:
    assert language_of_socket(AnonymousUser(), {}, "de-AT,de;q=0.9,en;q=0.5") == "de"
    assert language_of_socket(AnonymousUser(), {"django_language": "fr"}, "de") == "fr"
    assert language_of_socket(AnonymousUser(), {"django_language": "xx"}, "es, fr;q=0.5") == "fr"
    assert language_of_socket(None, {}, "") == "en"
    player.language = "de"
    assert language_of_socket(player, {"django_language": "fr"}, "fr") == "de"
    player.language = ""
    assert language_of_socket(player, {"django_language": "fr"}, "de") == "fr"


def first_card(game: Game, user: User) -> None:
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    card = engine.view(engine.load(game.snapshot), position)["batch"][0]["id"]
    services.play(game, user, {"type": "keep", "card": card}, game.version)


async def push_of(ws: Any, version: int) -> str:
    """The socket's next push of this version: the other person's socket arriving may have
    pushed a presence change (at the version before) first."""
    while True:  # each receive waits as long as a loaded machine needs, then fails the test
        html = str(await ws.receive_from())
        if f'data-version="{version}"' in html:
            return html


@pytest.mark.django_db(transaction=True)
async def test_a_german_and_a_french_person_at_one_table_each_read_their_own_words(
    running_game: Game, player: User, rival: User, bots_inline: None
) -> None:
    def speaks(user: User, code: str) -> None:
        user.language = code
        user.save(update_fields=["language"])

    await database_sync_to_async(speaks)(player, "de")
    await database_sync_to_async(speaks)(rival, "fr")
    german, french = await socket(running_game, player), await socket(running_game, rival)
    await german.connect()
    await french.connect()
    first_de, first_fr = await german.receive_from(), await french.receive_from()
    assert "Dein Blech" in first_de and "Votre plaque" not in first_de
    assert "Votre plaque" in first_fr and "Dein Blech" not in first_fr
    await database_sync_to_async(first_card)(running_game, rival)
    version = await database_sync_to_async(stored_version)(running_game)
    pushed_de, pushed_fr = await push_of(german, version), await push_of(french, version)
    assert "Warten auf" in pushed_de or "Festgelegt" in pushed_de, pushed_de
    assert "Verrouillé" in pushed_fr, pushed_fr
    await german.disconnect()
    await french.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "market"), [("fr", "Marché"), ("de", "Markt")])
def test_a_whole_cakehalla_game_draws_in_french_and_german(
    language: str, market: str, make_user: Callable[[str], User], bots_inline: None
) -> None:
    """Its templates' words and its words made in Python (the kitchen log, why a token or a card
    is refused, costs in words, the hints, the standings' why) read in the language, with no
    English left beyond the game's names; every plural reads a number whatever the language."""
    people = [make_user("alice"), make_user("bob")]
    game = table("cakehalla", people, 1, seed=31)
    names = seated(game) | {"alice", "bob"}
    rng = random.Random(31)
    drawn = 0
    left: set[str] = set()
    while True:
        for viewer in (people[0], AnonymousUser()):
            boards = boards_of(game, viewer, language)
            assert market in boards[language] and "Market" in boards["en"]
            if drawn % 3 == 0:
                left |= english_on_board(boards, language, names, CAKEHALLA_NAMES)
            drawn += 1
        if not someone_moves(game, people, rng):
            break
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and drawn > 20
    boards = boards_of(game, people[0], language)
    assert {"fr": "Classement final", "de": "Endstand"}[language] in boards[language]
    left |= english_on_board(boards, language, names, CAKEHALLA_NAMES)
    assert left == set(), "|".join(sorted(left))


def test_the_words_kept_put_in_a_markup_and_a_text_of_one_spelling_each_as_it_is() -> None:
    from markupsafe import Markup

    from games.boards.jinja import board_gettext

    with translation.override("fr"):
        safe = board_gettext("Keep %(card)s", card=Markup("<b>Croissant</b>"))
        text = board_gettext("Keep %(card)s", card="<b>Croissant</b>")
        again = board_gettext("Keep %(card)s", card="<b>Croissant</b>")
    assert safe == "Garder : <b>Croissant</b>"
    assert text == again == "Garder : &lt;b&gt;Croissant&lt;/b&gt;"


@pytest.mark.django_db
def test_a_tables_notice_reads_on_the_board_in_each_viewers_language(
    make_user: Callable[[str], User],
) -> None:
    """A notice is stored once, as its msgid and values, in the language of the move that wrote
    it; each viewer's board says it in their own (games/boards/context.py, notice_words)."""
    from games.services.base import notice

    people = [make_user("alice"), make_user("bob")]
    game = table("midnight-bakery", people, 0, seed=7)
    with translation.override("fr"):
        notice(
            game,
            "Time ran out for %(name)s: a stand-in played %(seat)s's move.",
            {"name": "bob", "seat": "Flour"},
        )
    Game.objects.filter(pk=game.pk).update(notices=game.notices, version=game.version + 1)
    boards = boards_of(game, people[0], "de")
    assert "Time ran out for bob: a stand-in played Flour&#39;s move." in boards["en"]
    assert "Die Zeit von bob ist abgelaufen" in boards["de"]
    assert "Time ran out" not in boards["de"]
