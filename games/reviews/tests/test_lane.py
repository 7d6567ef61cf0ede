"""The review lane: a review worked whole, resumed after a killed worker, shown whole only once
every decision is in."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.reviews import decisions, lane
from games.reviews.decisions import count_decisions
from games.reviews.models import Review
from games.reviews.services import ask_review
from games.reviews.tests.conftest import position_of, work_whole
from games.web.replay import Replay
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_review_weighs_every_decision_of_the_seat(night: Game, player: User) -> None:
    seat = position_of(night, player)
    review, new = ask_review(night, player, seat)
    assert new and review.status == Review.Status.QUEUED
    review = work_whole(review)
    assert review.status == Review.Status.DONE and review.whole
    assert review.total == count_decisions(Replay.of(night), seat) == len(review.decisions) > 5
    moves = [d["move"] for d in review.decisions]
    assert moves == sorted(moves)
    seats = [p for p, _ in Replay.of(night).moves]
    assert all(seats[m] == seat for m in moves)
    for d in review.decisions:
        assert d["cost"] >= 0
        if d["matched"]:
            assert d["cost"] == 0
        assert d["chosen"] and d["best"] and d["when"].startswith("bake ")


def test_a_run_stops_at_its_deadline_and_the_next_goes_on(night: Game, player: User) -> None:
    review, _ = ask_review(night, player, position_of(night, player))
    with override_settings(REVIEW_RUN_SECONDS=0.0):
        lane.work_reviews()
    review.refresh_from_db()
    assert review.status == Review.Status.WORKING and review.done == 1 and not review.whole
    with override_settings(REVIEW_RUN_SECONDS=0.0):
        lane.work_reviews()  # the same lane takes its own review up again
    review.refresh_from_db()
    assert review.done == 2


def test_a_killed_workers_review_is_resumed_where_it_stopped(night: Game, player: User) -> None:
    whole = work_whole(ask_review(night, player, position_of(night, player))[0])
    # The same review, as a lane left it when it was killed after three decisions.
    original = list(whole.decisions)
    kept = original[:3]
    Review.objects.filter(pk=whole.pk).update(
        status=Review.Status.WORKING,
        decisions=kept,
        worker="reviews-gone-1",
        heartbeat=timezone.now() - timedelta(minutes=5),
        finished_at=None,
    )
    whole.refresh_from_db()
    assert not whole.whole
    resumed = work_whole(whole)
    assert resumed.worker == lane.WORKER_ID
    assert resumed.decisions[:3] == kept
    assert len(resumed.decisions) == resumed.total
    # Each decision has a seed of its own: worked again, the same figures.
    assert resumed.decisions == original


def test_another_lanes_fresh_review_is_left_alone(night: Game, player: User) -> None:
    review, _ = ask_review(night, player, position_of(night, player))
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.WORKING, worker="reviews-busy-2", heartbeat=timezone.now()
    )
    lane.work_reviews()
    review.refresh_from_db()
    assert review.worker == "reviews-busy-2" and review.decisions == []


def test_a_review_of_a_game_that_no_longer_replays_fails_in_words(
    night: Game, player: User
) -> None:
    review, _ = ask_review(night, player, position_of(night, player))
    Game.objects.filter(pk=night.pk).update(rules_version=0)
    review = work_whole(review)
    assert review.status == Review.Status.FAILED
    assert "rules version 0" in review.why


def test_the_runners_job_starts_a_run_on_the_lanes_own_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = threading.Event()
    release = threading.Event()
    threads: list[str] = []

    def a_long_run() -> None:
        threads.append(threading.current_thread().name)
        started.set()
        release.wait(5)

    monkeypatch.setattr(lane, "work_reviews", a_long_run)
    lane.on_its_lane()  # returns at once: the run goes on beside it
    assert started.wait(5)
    lane.on_its_lane()  # one run at a time: no second while the first is under way
    release.set()
    assert lane._run is not None
    lane._run.result(timeout=5)
    assert threads == [threads[0]] and threads[0].startswith("reviews")


def test_a_run_that_dies_mid_review_leaves_it_half_and_the_next_run_finishes_it(
    night: Game, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    review, _ = ask_review(night, player, position_of(night, player))
    weighed: list[int] = []
    weigh = decisions.weigh_decision

    def dies_at_the_third(*args: object, **kwargs: object) -> dict:
        if len(weighed) == 2:
            raise MemoryError("the worker's search died")
        weighed.append(1)
        return weigh(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lane, "weigh_decision", dies_at_the_third)
    with override_settings(REVIEW_RUN_SECONDS=60.0), pytest.raises(MemoryError):
        lane.work_reviews()  # run_once logs it, and the next run goes on
    review.refresh_from_db()
    assert review.status == Review.Status.WORKING and review.done == 2 and not review.whole
    page = client_for(player).get(f"/games/{night.pk}/review/{review.seat}/").content.decode()
    assert f"Weighing decision 3 of {review.total}." in page and "Every decision" not in page
    monkeypatch.setattr(lane, "weigh_decision", weigh)
    finished = work_whole(review)
    assert finished.whole and len(finished.decisions) == finished.total > 2
