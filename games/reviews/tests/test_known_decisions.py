"""A review finds the decision a person can tell by hand was poor.

A night of three people (seed 68, no bot), each keeping pastries in a fixed order of taste. At
the eighth pick of the second bake, Sugar (position 1) has two Macarons in its case and its batch
holds only a Macaron and a Jam tart: the Macaron completes a set of three, 9 points at once,
where the Jam tart scores 1 (5 if a Glaze came later). The seat that keeps the Jam tart there
loses about 8 points it could see; the review must name that moment, the Macaron, and the cost.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from accounts.models import User
from games.engines.midnight_bakery.cards import face_of
from games.models import Game
from games.reviews.models import Review
from games.reviews.services import ask_review
from games.reviews.summary import costliest
from games.reviews.tests.conftest import seeded_night, work_whole
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

SEED = 68
SEAT = 1
TASTE = [
    "chocolate",
    "truffle",
    "bun",
    "fruit",
    "croissant",
    "baguette-3",
    "macaron",
    "baguette-2",
    "glaze",
    "baguette-1",
    "jam",
    "peel",
]


def the_moment(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """At a two-card batch of a Macaron and a Jam tart, with two Macarons in the case: the Jam."""
    me = view["seat"]
    case = [card["face"] for card in view["seats"][me]["case"]]
    keeps = [a for a in legal if a["type"] == "keep"]
    if sorted(face_of(a["card"]) for a in keeps) != ["jam", "macaron"]:
        return None
    if case.count("macaron") % 3 != 2:
        return None
    return next(a for a in keeps if face_of(a["card"]) == "jam")


def by_taste(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The first pastry in the order of taste (a Peel last, and never two at once)."""
    return min(legal, key=lambda a: TASTE.index(face_of(a["card"])) if "card" in a else 99)


def jam_there(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """By taste, but the Jam tart at the moment."""
    return the_moment(view, legal) or by_taste(view, legal)


def reviewed(night: Game) -> Review:
    seat = night.seats.get(position=SEAT)
    with override_settings(REVIEW_ITERATIONS_MIDNIGHT_BAKERY=150):
        return work_whole(ask_review(night, seat.user, SEAT)[0])


def at_the_moment(review: Review) -> dict[str, Any]:
    found = [d for d in review.decisions if d["when"] == "bake 2, pick 8"]
    assert len(found) == 1
    return found[0]


def test_keeping_the_jam_tart_is_found_and_costed(
    player: User, rival: User, outsider: User
) -> None:
    night = seeded_night([player, rival, outsider], SEED, jam_there)
    review = reviewed(night)
    moment = at_the_moment(review)
    assert moment["chosen"] == "Keep the Jam tart"  # the control: the scripted mistake was made
    assert moment["best"] == "Keep the Macaron"
    assert 4.0 <= moment["cost"] <= 9.0
    assert moment in costliest(review.decisions, "points")  # among the three the page names
    user = night.seats.get(position=SEAT).user
    body = client_for(user).get(f"/games/{night.pk}/review/{SEAT}/").content.decode()
    summary = body.split('class="review-summary"')[1].split("</p>")[0]
    assert "three decisions" in summary or "bake 2, pick 8" in summary
    assert f"?move={moment['move']}&amp;eyes={SEAT}" in body


def test_keeping_the_macaron_there_costs_nothing(player: User, rival: User, outsider: User) -> None:
    night = seeded_night([player, rival, outsider], SEED, by_taste)
    moment = at_the_moment(reviewed(night))
    assert moment["chosen"] == moment["best"] == "Keep the Macaron"
    assert moment["matched"] and moment["cost"] == 0
