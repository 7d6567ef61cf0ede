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
        ("/games/987654/", "No such table"),
        ("/games/987654/replay/", "No such table"),
        ("/games/987654/export.json", "No such table"),
        ("/u/nobody-here/", "No such person"),
        ("/u/nobody-here/games.ndjson", "No such person"),
        ("/games/inbox/987654/", "No such notification"),
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
    assert "No such person" in response.content.decode()


@pytest.mark.parametrize("model", [Game, User])
def test_any_get_object_or_404_is_told_in_the_sites_words(model: type[Model]) -> None:
    said = not_found_words(Http404(f"No {model._meta.object_name} {DJANGO}."))
    assert DJANGO not in said and said.startswith("No such")
    assert not_found_words(Http404(f"No Recipe {DJANGO}.")).startswith("There is nothing")
