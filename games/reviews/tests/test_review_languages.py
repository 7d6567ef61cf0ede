"""A review read in the reader's language: the lane stores each decision's words (when, what was
chosen, what the master would choose) in every language of the site, and the page says them,
its summary and its costs in the reader's; a review stored before (English only) still reads."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from accounts.models import User
from games.models import Game
from games.reviews.models import Review
from games.reviews.services import ask_review
from games.reviews.summary import amount, in_language, reading
from games.reviews.tests.conftest import position_of, work_whole
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def review_page(game: Game, seat: int, user: User) -> str:
    user.language = "de"
    user.save(update_fields=["language"])
    return client_for(user).get(f"/games/{game.pk}/review/{seat}/").content.decode()


def test_a_review_reads_in_german_every_decision_and_the_summary(night: Game, player: User) -> None:
    seat = position_of(night, player)
    review = work_whole(ask_review(night, player, seat)[0])
    for d in review.decisions:
        assert set(d["said"]) == {"en", "fr", "de"}
        assert d["said"]["en"]["when"] == d["when"] and d["when"].startswith("bake ")
        assert d["said"]["de"]["when"].startswith("Backgang ")
        assert d["said"]["fr"]["when"].startswith("fournée ")
    body = review_page(night, seat, player)
    table = body[body.index('class="review-decisions"') :]
    assert "Backgang " in table and "bake " not in table
    summary = re.search(r'<p class="review-summary"><strong>(.*?)</strong>', body)
    assert summary is not None
    for english in ("You played", "You lost", "about ", "less than", "decisions"):
        assert english not in summary.group(1)


def test_a_review_stored_before_its_languages_reads_as_stored(night: Game, player: User) -> None:
    seat = position_of(night, player)
    review = work_whole(ask_review(night, player, seat)[0])
    old = [{k: v for k, v in d.items() if k != "said"} for d in review.decisions]
    Review.objects.filter(pk=review.pk).update(decisions=old)
    with translation.override("de"):
        assert in_language(old) == old
        assert reading(old, "points").total == len(old)
    assert "Backgang " not in review_page(night, seat, player).split("review-decisions")[1]


def test_costs_are_said_in_the_language_active() -> None:
    with translation.override("en"):
        assert [amount(v, "points") for v in (0.2, 1, 3)] == [
            "less than a point",
            "about 1 point",
            "about 3 points",
        ]
        assert amount(12.4, "win") == "about 12% of a win"
    with translation.override("de"):
        assert amount(3, "points") == "etwa 3 Punkte"
        assert amount(12.4, "win") == "etwa 12 % eines Siegs"
