"""Every 404 says what was not found in the site's words, whichever path raised it."""

from __future__ import annotations

import pytest
from django.db.models import Model
from django.http import Http404

from accounts.models import User
from games.models import Game
from games.web.errors import not_found_words
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

DJANGO = "matches the given query"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("/games/987654/", "We could not find that table"),
        ("/games/987654/replay/", "We could not find that table"),
        ("/games/987654/export.json", "We could not find that table"),
        ("/u/nobody-here/", "Nobody here goes by that name"),
        ("/u/nobody-here/games.ndjson", "Nobody here goes by that name"),
        ("/games/inbox/987654/", "We could not find that notification"),
        ("/no/such/address/", "There is nothing at this address"),
    ],
)
def test_a_404_names_what_was_not_found(player: User, url: str, words: str) -> None:
    response = client_for(player).get(url)
    assert response.status_code == 404
    page = response.content.decode()
    assert words in page and DJANGO not in page and "Resolver404" not in page


def test_a_friend_change_for_nobody_is_a_404_in_words(player: User) -> None:
    response = client_for(player).post("/games/friends/nobody-here/ask/")
    assert response.status_code == 404
    assert "Nobody here goes by that name" in response.content.decode()


@pytest.mark.parametrize("model", [Game, User])
def test_any_get_object_or_404_is_told_in_the_sites_words(model: type[Model]) -> None:
    said = not_found_words(Http404(f"No {model._meta.object_name} {DJANGO}."))
    assert DJANGO not in said and said.startswith(("We could not find", "Nobody here"))
    assert not_found_words(Http404(f"No Recipe {DJANGO}.")).startswith("There is nothing")


def words_of(page: str) -> str:
    """What the 404 page says (its message), without the markup."""
    return page.split('role="alert">', 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (
            "/u/bad%00name/",
            "Nobody here goes by that name: it may be mistyped, or the account deleted.",
        ),
        ("/u/bad%00name/games.ndjson", "Nobody here goes by that name"),
        ("/stats/no-such-game/", "We offer no game by that name"),
        ("/leaderboards/no-such-game/", "We offer no game by that name"),
        ("/games/rules/no-such-game/", "We offer no game by that name"),
    ],
)
def test_every_404_is_a_sentence_a_person_would_write(player: User, url: str, words: str) -> None:
    response = client_for(player).get(url)
    assert response.status_code == 404
    said = words_of(response.content.decode())
    assert said.startswith(words) and said.endswith(".")
    assert not said.startswith("No such")


def test_a_friend_change_nobody_knows_is_told_in_a_sentence(player: User, rival: User) -> None:
    response = client_for(player).post(f"/games/friends/{rival.username}/dance/")
    assert response.status_code == 404
    said = words_of(response.content.decode())
    assert said == "That link asks for a change we do not know: it may be mistyped."
