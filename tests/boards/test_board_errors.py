"""A failure inside the board is told in words, in the board, never as a traceback page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for


def fail(*args: object, **kwargs: object) -> None:
    """A service that breaks."""
    raise RuntimeError("the oven caught fire")


@pytest.fixture
def broken_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """services.play fails the way a bug or a lost database would."""
    monkeypatch.setattr(services, "play", fail)


def post_a_pick(game: Game, user: User) -> Any:
    """A pick posted the way the board's form posts it."""
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    action = engine.legal_actions(engine.load(game.snapshot), position)[0]
    return client_for(user).post(
        reverse("games:play", args=[game.pk]),
        {"action": json.dumps(action), "version": str(game.version)},
        headers={"HX-Request": "true"},
    )


@pytest.mark.django_db
def test_a_failed_tap_answers_the_sites_own_message_even_with_debug_on(
    running_game: Game, player: User, broken_play: None, settings: object
) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]
    response = post_a_pick(running_game, player)
    body = response.content.decode()
    assert response.status_code == 500
    assert 'id="board-message"' in body and "your tap was not taken" in body
    assert "Traceback" not in body and "oven caught fire" not in body


@pytest.mark.django_db
def test_a_refusal_is_not_turned_into_the_error_box(running_game: Game, outsider: User) -> None:
    response = client_for(outsider).post(
        reverse("games:play", args=[running_game.pk]),
        {"action": "{}", "version": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert "not taken" not in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_no_page_carries_the_script_that_swaps_error_pages_in_whole(
    settings: Any, debug: bool, running_game: Game, player: User
) -> None:
    """django-htmx's debug script (added by its htmx_script tag under DEBUG, so on `make run`)
    replaces the whole page with any 400, 403, 404 or 500 answer: a refused move would wipe the
    board instead of showing the refusal in it."""
    settings.DEBUG = debug
    page = client_for(player).get(running_game.get_absolute_url()).content.decode()
    assert "django_htmx/htmx-2.min.js" in page
    assert "django-htmx.js" not in page
