"""The guided first games in French and in German: every step of Midnight Bakery's tutorial, from
the welcome to the scoring (what to press, and why), and Cakehalla's welcome and planned reasons,
read with no English left beyond the games' proper names (cards, seats, the owl, ingredients,
customers)."""

from __future__ import annotations

from typing import Any

import lxml.html
import pytest

from accounts.models import User
from games import services
from games.engines.cakehalla.cards import CARDS, CUSTOMERS
from games.engines.midnight_bakery.cards import FACE_NAMES, OWL_NAME
from games.models import Game
from games.tutorial import services as tutorial
from games.tutorial.tests.test_tutorial import legal_now, pressed
from tests.conftest import client_for
from tests.i18n.test_no_english_left import english_left, read

pytestmark = pytest.mark.django_db

PROPER = sorted(
    {
        *FACE_NAMES.values(),
        OWL_NAME,
        "Peel",
        *(card.name for card in CARDS),
        *(customer.name for customer in CUSTOMERS),
        *("Sugar", "Blueberry", "Matcha", "Cherry", "Cocoa", "Saffron"),
    },
    key=len,
    reverse=True,
)
"""The games' own names, the same in every language."""


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The steps are read as soon as a service returns, the bot's answer made."""


def panels(user: User, game: Game, language: str) -> dict[str, Any]:
    """The tutorial's step on the table page, as the learner reads it in English and in the
    language (parsed)."""
    out = {}
    for code in ("en", language):
        user.language = code
        user.save(update_fields=["language"])
        page = client_for(user).get(game.get_absolute_url()).content.decode()
        out[code] = lxml.html.fromstring(page).get_element_by_id("tutorial-step")
    return out


def english_in(step: dict[str, Any], language: str) -> set[str]:
    """What reads alike in English and in the language, once the proper names are taken out."""
    html = {code: lxml.html.tostring(panel, encoding="unicode") for code, panel in step.items()}
    found = set()
    for piece in english_left(html, language):
        rest = piece
        for name in PROPER:
            rest = rest.replace(name, "")
        if any(ch.isalpha() for ch in rest):
            found.add(piece)
    return found


@pytest.mark.parametrize("language", ["fr", "de"])
def test_every_step_of_the_midnight_bakery_tutorial_is_in_the_readers_language(
    language: str, player: User
) -> None:
    game = tutorial.start_tutorial(player, "midnight-bakery")
    steps = 0
    for _ in range(100):
        game.refresh_from_db()
        step = panels(player, game, language)
        assert read(lxml.html.tostring(step[language], encoding="unicode"))
        assert english_in(step, language) == set(), steps
        steps += 1
        if game.status == Game.Status.OVER:
            break
        found = game_board(player, game).cssselect(step[language].get("data-target"))
        if found[0].get("name") != "action":  # a round's results: the button that closes them
            seen = found[0].getparent().cssselect("input[name=seen]")[0].get("value")
            assert services.close_results(game, player, int(seen)) is not None
            continue
        action = pressed(found[0])
        assert action in legal_now(game, player)
        services.play(game, player, action, None)
    assert game.status == Game.Status.OVER and steps > 5


def game_board(user: User, game: Game) -> Any:
    """The board the learner is shown now (parsed)."""
    page = client_for(user).get(game.get_absolute_url()).content.decode()
    return lxml.html.fromstring(page).get_element_by_id("board")


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "Une partie déjà commencée, à 6 points"),
        ("de", "Ein Spiel, das schon läuft, bei 6 Punkten"),
    ],
)
def test_the_cakehalla_tutorials_welcome_and_reason_are_in_the_readers_language(
    language: str, said: str, player: User
) -> None:
    game = tutorial.start_tutorial(player, "cakehalla")
    step = panels(player, game, language)
    intro = step[language].cssselect(".tutorial-intro")[0].text_content()
    why = step[language].cssselect(".tutorial-why")[0].text_content()
    assert intro.startswith(said)
    english = step["en"].cssselect(".tutorial-why")[0].text_content()
    assert english.startswith("Three different kinds") and why != english
    assert "Blueberry" in why and "Cherry Cream Puff" in why  # the names stay the game's own
