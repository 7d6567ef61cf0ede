"""The reviews' knobs. Each is a setting of that name, its default here; a test sets it as any
setting."""

#: Reviews one person may ask for in a day (24 hours): each costs the site a minute of CPU.
REVIEWS_PER_DAY = 5
#: Reviews waiting or being worked in the whole site beyond which a new ask is refused.
REVIEWS_QUEUED_MAX = 20
#: Played-out games (the master's iterations) that weigh one decision: fixed, so a review is the
#: same on any machine and for any load (a seed per decision).
REVIEW_ITERATIONS = 1000
#: Seconds between two runs of the review lane in each serving process.
REVIEW_SWEEP_SECONDS = 1.0
#: Seconds of wall time one run of the lane weighs decisions before it lets go of its thread (the
#: review stays its own; the next run goes on).
REVIEW_RUN_SECONDS = 5.0
#: Seconds without a heartbeat after which a review being worked is taken up by another lane (its
#: worker was killed): it resumes from the decisions already saved.
REVIEW_STALE_SECONDS = 60.0
