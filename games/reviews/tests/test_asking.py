"""Asking for a review: who may, when, how many; each refusal a sentence that changes nothing."""

from __future__ import annotations

import pytest
from django.test import override_settings

from accounts.models import User
from games import services
from games.models import Game
from games.reviews.models import Review
from games.reviews.services import ReviewRefused, ask_review
from games.reviews.tests.conftest import position_of, work_whole
from tests.conftest import client_for
from tests.support.finished_games import running_game

pytestmark = pytest.mark.django_db


def ask_page(game: Game, seat: int, user: User) -> tuple[int, str]:
    """Post the ask form as a person without script; the status and the page."""
    response = client_for(user).post(f"/games/{game.pk}/review/{seat}/ask/", follow=True)
    return response.status_code, response.content.decode()


def test_a_player_asks_for_a_review_of_their_seat(night: Game, player: User) -> None:
    seat = position_of(night, player)
    status, page = ask_page(night, seat, player)
    assert status == 200
    review = Review.objects.get(game=night, seat=seat)
    assert review.asked_by == player and review.status == Review.Status.QUEUED
    assert "The review is waiting its turn" in page


def test_asked_twice_the_existing_review_is_the_answer(
    night: Game, player: User, rival: User
) -> None:
    seat = position_of(night, player)
    first, new = ask_review(night, player, seat)
    again, new_again = ask_review(night, rival, seat)  # a public game: anyone may ask
    assert new and not new_again and again.pk == first.pk
    assert Review.objects.count() == 1


def test_anyone_may_ask_for_any_seat_of_a_public_game(
    night: Game, rival: User, outsider: User
) -> None:
    review, new = ask_review(night, outsider, position_of(night, rival))
    assert new and review.asked_by == outsider


def refused(game: Game, user: User, seat: int, said: str) -> None:
    """The ask is refused with these words, and nothing changes (no review, no other row)."""
    before = Review.objects.count()
    with pytest.raises(ReviewRefused, match=said):
        ask_review(game, user, seat)
    assert Review.objects.count() == before
    status, page = ask_page(game, seat, user)
    assert status in (400, 404) and said.split("(")[0][:30] in page.replace("&#x27;", "'")
    assert Review.objects.count() == before


def test_another_seat_of_a_private_game_is_refused(
    private_night: Game, rival: User, outsider: User, player: User
) -> None:
    refused(private_night, rival, position_of(private_night, player), "your own seat only")
    assert ask_review(private_night, rival, position_of(private_night, rival))[1]


def test_a_private_games_review_is_not_read_by_another(
    private_night: Game, player: User, rival: User
) -> None:
    seat = position_of(private_night, player)
    ask_review(private_night, player, seat)
    page = client_for(rival).get(f"/games/{private_night.pk}/review/{seat}/")
    assert page.status_code == 403
    assert "only that seat's player may read its review" in page.content.decode().replace(
        "&#x27;", "'"
    )


def test_a_game_not_over_is_refused(player: User, rival: User) -> None:
    game = running_game([player, rival])
    refused(game, player, position_of(game, player), "once it is over")


def test_a_game_of_older_rules_is_refused(night: Game, player: User) -> None:
    Game.objects.filter(pk=night.pk).update(rules_version=0)
    night.refresh_from_db()
    refused(night, player, position_of(night, player), "played under rules version 0")


def test_a_seat_the_game_never_had_is_refused(night: Game, player: User) -> None:
    with pytest.raises(ReviewRefused, match="no such seat"):
        ask_review(night, player, 7)
    assert client_for(player).post(f"/games/{night.pk}/review/7/ask/").status_code == 404


def test_a_person_asks_at_most_so_many_a_day(night: Game, player: User, rival: User) -> None:
    with override_settings(REVIEWS_PER_DAY=1):
        ask_review(night, player, position_of(night, player))
        refused(night, player, position_of(night, rival), "ask again tomorrow")


def test_a_full_queue_is_refused(night: Game, player: User, rival: User, outsider: User) -> None:
    with override_settings(REVIEWS_QUEUED_MAX=1):
        ask_review(night, player, position_of(night, player))
        refused(night, outsider, position_of(night, rival), "Too many reviews are waiting")


def test_asking_needs_a_post_and_a_person(night: Game, player: User) -> None:
    seat = position_of(night, player)
    assert client_for(player).get(f"/games/{night.pk}/review/{seat}/ask/").status_code == 405
    anonymous = client_for(None).post(f"/games/{night.pk}/review/{seat}/ask/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not Review.objects.exists()


def test_a_resigned_or_cancelled_table_is_not_reviewed(player: User) -> None:
    game = services.create_game(player, "midnight-bakery", 3)
    services.cancel(game, player)
    with pytest.raises(ReviewRefused):
        ask_review(game, player, 0)


def test_asked_twice_at_the_days_limit_with_a_full_queue_the_review_is_the_answer(
    night: Game, player: User
) -> None:
    seat = position_of(night, player)
    with override_settings(REVIEWS_PER_DAY=1, REVIEWS_QUEUED_MAX=1):
        first, _ = ask_review(night, player, seat)
        status, page = ask_page(night, seat, player)  # the same person asks again
    assert status == 200 and "The review is waiting its turn" in page
    assert "ask again tomorrow" not in page and "Too many reviews" not in page
    again = Review.objects.get()
    assert (again.pk, again.asked_by, again.created_at) == (first.pk, player, first.created_at)


def test_a_whole_review_asked_for_again_is_kept_as_it_is(
    night: Game, player: User, outsider: User
) -> None:
    seat = position_of(night, player)
    whole = work_whole(ask_review(night, player, seat)[0])
    for person in (player, outsider):
        status, page = ask_page(night, seat, person)
        assert status == 200 and "Every decision" in page
    kept = Review.objects.get()
    assert kept.status == Review.Status.DONE and kept.whole
    assert (kept.decisions, kept.finished_at) == (whole.decisions, whole.finished_at)


def test_a_refused_ask_for_another_seat_of_a_private_game_shows_not_its_review(
    private_night: Game, player: User, rival: User
) -> None:
    seat = position_of(private_night, player)
    whole = work_whole(ask_review(private_night, player, seat)[0])
    chosen = {d["chosen"] for d in whole.decisions} | {d["best"] for d in whole.decisions}
    for headers in ({}, {"HX-Request": "true"}):
        answer = client_for(rival).post(
            f"/games/{private_night.pk}/review/{seat}/ask/", headers=headers
        )
        page = answer.content.decode().replace("&#x27;", "'")
        assert answer.status_code == 400 and "your own seat only" in page
        assert "Every decision" not in page and "costliest" not in page.lower()
        assert not [words for words in chosen if words in page]
    assert Review.objects.get().decisions == whole.decisions


def test_a_review_being_worked_counts_in_the_full_queue(
    night: Game, player: User, rival: User, outsider: User
) -> None:
    with override_settings(REVIEWS_QUEUED_MAX=1):
        review, _ = ask_review(night, player, position_of(night, player))
        Review.objects.filter(pk=review.pk).update(status=Review.Status.WORKING)
        refused(night, outsider, position_of(night, rival), "Too many reviews are waiting")
