"""Admin's words for moderators in their own language: a person's page (its inlines' names, the
newest rows' line, the Deactivate button, the fields' help texts), a game's page (Abort, the
hidden seed) and what an action tells them."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.admin.people import INLINE_ROWS
from games.models import ChatMessage, Game, Report
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """Games are played to their end through the services: bots move inline."""


def in_language(person: User, language: str) -> User:
    person.language = language
    person.save(update_fields=["language"])
    return person


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            [
                f"Die neuesten {INLINE_ROWS} von {INLINE_ROWS + 2}",
                "Chatzeilen dieser Person",
                "Konto deaktivieren",
                "Ein Konto eines hauseigenen Bots, keine Person.",
            ],
        ),
        (
            "fr",
            [
                f"Les {INLINE_ROWS} plus récents sur {INLINE_ROWS + 2}",
                "lignes de discussion de cette personne",
                "Désactiver le compte",
                "Un compte de bot de la maison, pas une personne.",
            ],
        ),
    ],
)
def test_a_persons_page_speaks_the_moderators_language(
    language: str, said: list[str], moderator: User, player: User, rival: User
) -> None:
    game = finished_game([player, rival])
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, author=player, text=f"line {i}") for i in range(INLINE_ROWS + 2)
    )
    admin = client_for(in_language(moderator, language))
    page = admin.get(f"/admin/accounts/user/{player.pk}/change/").text
    for words in said:
        assert words in page, words
    assert "The newest" not in page and "Deactivate the account" not in page


def test_a_running_games_page_and_a_report_action_speak_german(
    moderator: User, running_game: Game, player: User, rival: User
) -> None:
    admin = client_for(in_language(moderator, "de"))
    page = admin.get(f"/admin/games/game/{running_game.pk}/change/").text
    assert "Dieses Spiel abbrechen" in page
    assert "Verborgen, solange das Spiel läuft" in page  # the seed, hidden
    assert "Wer das Spiel ansehen darf, sobald es begonnen hat." in page  # a field's help text
    report = Report.objects.create(
        game=running_game, reporter=rival, reported=player, reason="abuse", note="rude"
    )
    answer = admin.post(
        "/admin/games/report/",
        {"action": "dismiss", "_selected_action": [report.pk]},
        follow=True,
    ).text
    assert "1 Meldung abgewiesen." in answer
