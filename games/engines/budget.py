"""A master's thinking budget, shared by both engines' searches: CPU time of the calling thread
(time.thread_time), so a busy machine makes a master slower, never weaker; or, given a count,
exactly that many steps of the search, reproducible for a seed whatever the machine."""

import time


class Budget:
    """`seconds` of this thread's CPU from the moment it is made, unless `iterations` is given:
    then that many steps (a game's own: played-out nights, passes over the sampled tables)."""

    __slots__ = ("iterations", "seconds", "start")

    def __init__(self, seconds: float, iterations: int | None) -> None:
        self.seconds = seconds
        self.iterations = iterations
        self.start = time.thread_time()

    def spent(self, steps: int) -> bool:
        """Whether it is used, `steps` steps in: the count if one was given, else the time."""
        if self.iterations is not None:
            return steps >= self.iterations
        return time.thread_time() - self.start >= self.seconds

    def past(self, share: float) -> bool:
        """Whether that share of the time is used (never under a count: then all is weighed)."""
        return self.iterations is None and time.thread_time() - self.start >= self.seconds * share
