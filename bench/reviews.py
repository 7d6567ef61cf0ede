"""What a review costs: the CPU to weigh every decision of one seat of a finished game.

On a throwaway database (bench._site_setup): plays BENCH_REVIEWS_GAMES games of each size below
between greedy bots through the services (a 4-baker Midnight Bakery night, a 2-baker Cakehalla
game), asks for a review of one seat of each and works it whole on this thread
(THINKING_PROCESSES = 0: the weighing's CPU is this process's), each decision weighed as the site
does (REVIEW_ITERATIONS_<GAME>; BENCH_REVIEWS_SCALE multiplies them, for a short pass). Prints
each review's CPU seconds and decisions, and the median. Budgets (issue 48): under 60 s of CPU
for a seat of a 4-baker night, under 90 s for a seat of a 2-baker Cakehalla game.
"""

from __future__ import annotations

import os
import statistics
import time

from bench._site_setup import django_on_a_throwaway_database

GAMES = int(os.environ.get("BENCH_REVIEWS_GAMES", "2"))
SCALE = float(os.environ.get("BENCH_REVIEWS_SCALE", "1"))
SIZES = (("midnight-bakery", 4, 60.0), ("cakehalla", 2, 90.0))


def review_cpu(kind: str, players: int) -> tuple[float, int, int]:
    """One game between greedy bots, and a review of its first seat: CPU seconds, decisions, and
    the iterations a decision."""
    from django.utils import timezone

    from games.management.commands.simulate import simulate_one
    from games.reviews import lane
    from games.reviews.models import Review
    from games.reviews.services import iterations_for

    game = simulate_one(kind, players, ["greedy"])
    iterations = max(1, round(iterations_for(kind) * SCALE))
    review = Review.objects.create(game=game, seat=0, iterations=iterations)
    start = time.process_time()
    while review.status not in (Review.Status.DONE, Review.Status.FAILED):
        claimed = lane.claim(timezone.now(), lane.WORKER_ID)
        if claimed is None:
            raise RuntimeError("the review could not be claimed")
        lane.work(claimed, lane.WORKER_ID, float("inf"))
        review.refresh_from_db()
    spent = time.process_time() - start
    if review.status != Review.Status.DONE:
        raise RuntimeError(f"the review failed: {review.why}")
    return spent, review.total, iterations


def main() -> None:
    with django_on_a_throwaway_database() as label:
        from django.conf import settings

        settings.THINKING_PROCESSES = 0
        settings.BOT_MOVES = "inline"
        print(f"reviews on {label}, {GAMES} games of each size")
        for kind, players, budget in SIZES:
            runs = [review_cpu(kind, players) for _ in range(GAMES)]
            for seconds, decisions, iterations in runs:
                print(
                    f"  a review of one seat, {kind}, {players} bakers, {iterations} iterations "
                    f"a decision: {seconds:.1f} s CPU, {decisions} decisions "
                    f"({1000 * seconds / max(decisions, 1):.0f} ms a decision)"
                )
            median = statistics.median(s for s, _, _ in runs)
            verdict = "within" if median < budget else "OVER"
            print(
                f"{kind}, {players} bakers: median {median:.1f} s CPU a review "
                f"({verdict} the {budget:.0f} s budget)"
            )


if __name__ == "__main__":
    main()
