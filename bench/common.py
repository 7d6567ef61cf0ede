"""Small helpers shared by the benchmarks."""

import statistics
import time
from collections.abc import Callable


def median_of(runs: int, measure: Callable[[], float]) -> float:
    """The median of several runs of a measurement."""
    return statistics.median(measure() for _ in range(runs))


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call takes, by the monotonic performance counter."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start
