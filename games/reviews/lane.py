"""The review lane: each serving process works one review at a time, a few seconds a run.

The Review rows are the queue (asked in services.py). The lane is a thread of its own in each
serving process: the runner's periodic job (`on_its_lane`, registered in games/wiring.py) only
starts a run there when none is under way and returns at once, so neither the bots' threads
(where the runner's jobs run) nor the mail lane ever wait on a review. A run claims one review:
its own under way, or one whose lane stopped beating (killed mid-review), or the oldest waiting.
It weighs the seat's next decisions, saving each one with a heartbeat as it is done, for at most
REVIEW_RUN_SECONDS, then lets go; the next run goes on. The weighing itself runs in the thinking
pool, under the same cap as the bots' searches. A review is marked done only once every decision
is in, so a page never shows half a review as whole.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q
from django.utils import timezone

from games import events
from games.reviews.decisions import count_decisions, seat_decisions, weigh_decision
from games.reviews.masters import master_of
from games.reviews.models import Review
from games.web.replay import Replay, ReplayUnavailable

logger = logging.getLogger(__name__)

WORKER_ID = f"reviews-{socket.gethostname()}-{os.getpid()}"[:64]
"""How this process signs the reviews it works (another lane takes one up once it goes quiet)."""

CLAIM_AMONG = 5
"""Reviews tried at one claim, in case another lane takes the first at the same instant."""


_lane = ThreadPoolExecutor(1, thread_name_prefix="reviews")
_lock = threading.Lock()
_run: Future[None] | None = None


def on_its_lane() -> None:
    """The runner's job: a run of the lane on the lane's own thread, unless one is under way."""
    global _run
    with _lock:
        if _run is None or _run.done():
            _run = _lane.submit(run_once)


def run_once() -> None:
    """One run on the lane's thread, with Django's connection upkeep around it; a failure is
    logged and the next run tries again."""
    close_old_connections()
    try:
        work_reviews()
    except Exception:
        logger.exception("a run of the review lane failed; the next run tries again")
    finally:
        close_old_connections()


def work_reviews() -> None:
    """One run of the lane: claim a review and weigh its next decisions for a few seconds."""
    review = claim(timezone.now(), WORKER_ID)
    if review is not None:
        work(review, WORKER_ID, time.monotonic() + settings.REVIEW_RUN_SECONDS)


def claimable(now: datetime, worker: str) -> list[Review]:
    """The reviews this lane may take: its own first, then the abandoned, then the waiting."""
    stale = now - timedelta(seconds=settings.REVIEW_STALE_SECONDS)
    working = Q(status=Review.Status.WORKING)
    found = Review.objects.filter(
        (working & Q(worker=worker))
        | (working & (Q(heartbeat__lt=stale) | Q(heartbeat=None)))
        | Q(status=Review.Status.QUEUED)
    ).order_by("created_at")[:CLAIM_AMONG]
    return sorted(found, key=lambda r: (r.worker != worker, r.status != Review.Status.WORKING))


def claim(now: datetime, worker: str) -> Review | None:
    """Take one review for this lane: a row changed only if nobody changed it since it was read."""
    for review in claimable(now, worker):
        taken = Review.objects.filter(
            pk=review.pk, status=review.status, worker=review.worker, heartbeat=review.heartbeat
        ).update(status=Review.Status.WORKING, worker=worker, heartbeat=now)
        if taken:
            review.refresh_from_db()
            return review
    return None


def work(review: Review, worker: str, deadline: float) -> None:
    """Weigh the review's next decisions until the deadline, each saved as it is done; mark it
    done once all are in. It stops at once if another lane took the review over."""
    master = master_of(review.game.kind)
    try:
        replay = Replay.of(review.game)
    except ReplayUnavailable as exc:
        fail(review, worker, str(exc))
        return
    if master is None:
        fail(review, worker, f"{review.game.spec.name} has no master bot to review it.")
        return
    if not review.decisions:
        review.total = count_decisions(replay, review.seat)
        Review.objects.filter(pk=review.pk, worker=worker).update(total=review.total)
    decisions = list(review.decisions)
    for decision in seat_decisions(replay, review.seat, start=len(decisions)):
        decisions.append(
            weigh_decision(replay, master, review.seat, decision, review.iterations or 1)
        )
        saved = Review.objects.filter(pk=review.pk, worker=worker).update(
            decisions=decisions, heartbeat=timezone.now()
        )
        if not saved:
            return
        events.review_progressed.tell(review.game_id, review.seat)
        if time.monotonic() >= deadline and len(decisions) < review.total:
            return
    done = Review.objects.filter(pk=review.pk, worker=worker).update(
        status=Review.Status.DONE, finished_at=timezone.now(), total=len(decisions)
    )
    if done:
        events.review_progressed.tell(review.game_id, review.seat)


def fail(review: Review, worker: str, why: str) -> None:
    """A review that cannot be made (its game no longer replays): said, never retried."""
    logger.warning("Review %s cannot be made: %s", review.pk, why)
    Review.objects.filter(pk=review.pk, worker=worker).update(
        status=Review.Status.FAILED, why=why[:300], finished_at=timezone.now()
    )
    events.review_progressed.tell(review.game_id, review.seat)
