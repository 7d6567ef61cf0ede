"""The review pages: the ask, the progress while it is worked (polled), the whole review, and
nothing any other seat held on them."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.reviews.models import Review
from games.reviews.services import ask_review
from games.reviews.tests.conftest import position_of, work_whole
from games.web.replay import Replay
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


def page(game: Game, seat: int, user: User | None, htmx: bool = False) -> str:
    headers = {"HX-Request": "true"} if htmx else {}
    response = client_for(user).get(f"/games/{game.pk}/review/{seat}/", headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_offers_the_ask_form_until_someone_asks(night: Game, player: User) -> None:
    body = page(night, position_of(night, player), player)
    assert re.search(r'<form method="post" action="/games/\d+/review/\d+/ask/"', body)
    assert "csrfmiddlewaretoken" in body and "Review my game" in body


def test_the_progress_is_polled_and_moves(night: Game, player: User) -> None:
    seat = position_of(night, player)
    review, _ = ask_review(night, player, seat)
    body = page(night, seat, player, htmx=True)
    assert 'hx-trigger="every 2s"' in body and "waiting its turn" in body
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.WORKING,
        total=20,
        decisions=[{"move": 0}] * 6,
        heartbeat=timezone.now() - timedelta(seconds=1),
    )
    body = page(night, seat, player, htmx=True)
    assert "Weighing decision 7 of 20." in body
    assert 'value="6"' in body and "every 2s" in body
    assert "costliest" not in body.lower()  # never half a review shown as whole


def test_the_whole_review_names_the_costliest_and_links_the_replay(
    night: Game, player: User
) -> None:
    seat = position_of(night, player)
    review = work_whole(ask_review(night, player, seat)[0])
    body = page(night, seat, player)
    assert "every 2s" not in body  # done: no more polling
    assert "Every decision" in body and "<svg" in body and "<polyline" in body
    for d in review.decisions:
        assert f"?move={d['move']}&amp;eyes={seat}" in body
    assert re.search(r"In \d+ of \d+ decisions \(\d+%\)", body)
    summary = re.search(r'<p class="review-summary"><strong>(.*?)</strong>', body)
    assert summary and summary.group(1).endswith(".")
    # The replay it links to opens at that moment, through that seat's eyes.
    first = review.decisions[0]["move"]
    frame = client_for(player).get(f"/games/{night.pk}/replay/?move={first}&eyes={seat}")
    assert frame.status_code == 200


def strings_in(data: Any) -> set[str]:
    """Every string in a view (keys and values, however deep)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in data.items()))
    if isinstance(data, list | tuple):
        return set().union(*(strings_in(v) for v in data))
    return set()


def dealt_cards(game: Game) -> set[str]:
    """Every card id the game dealt (its setup: the deck, or every pile)."""
    return {s for s in strings_in(game.setup) if re.search(r"-\d+$", s)}


def hidden_from(game: Game, seat: int) -> set[str]:
    """Card ids the seat never saw: in no view of its own at any moment of the game."""
    replay = Replay.of(game)
    engine = game.spec.engine
    seen: set[str] = set()
    for n in range(replay.total + 1):
        seen |= strings_in(engine.view(replay.state(n), seat))
    return dealt_cards(game) - seen


def leaks(body: str, hidden: set[str]) -> list[str]:
    """The hidden card ids on a page (not as the start of a longer id)."""
    return [c for c in hidden if re.search(re.escape(c) + r"(?![\w-])", body)]


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_a_review_page_shows_nothing_the_seat_did_not_see(
    kind: str, player: User, rival: User, outsider: User
) -> None:
    game = finished_game([player, rival], kind=kind, bots=0)
    seat = position_of(game, player)
    review = work_whole(ask_review(game, player, seat)[0])
    assert review.whole
    hidden = hidden_from(game, seat)
    assert hidden  # the control: the rival's batches, the piles' order: cards it never saw
    for user in (player, rival, outsider, None):
        for body in (page(game, seat, user), page(game, seat, user, htmx=True)):
            assert not leaks(body, hidden)
    listing = client_for(rival).get(f"/games/{game.pk}/review/").content.decode()
    assert not leaks(listing, hidden)


def test_the_games_reviews_list_offers_review_my_game(night: Game, player: User) -> None:
    body = client_for(player).get(f"/games/{night.pk}/review/").content.decode()
    assert "Review my game" in body and "Review this seat" in body
    replay = client_for(player).get(f"/games/{night.pk}/replay/").content.decode()
    assert f"/games/{night.pk}/review/" in replay
