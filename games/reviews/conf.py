"""The reviews' knobs. Each is a setting of that name, its default here; a test sets it as any
setting."""

#: Reviews one person may ask for in a day (24 hours): each costs the site a minute of CPU.
REVIEWS_PER_DAY = 5
#: Reviews waiting or being worked in the whole site beyond which a new ask is refused.
REVIEWS_QUEUED_MAX = 20
#: How long the master weighs one decision of each game, in its own `iterations` (fixed, so a
#: review is the same on any machine and under any load; a seed per decision). Sized for a review
#: of a seat within issue 48's budgets: 60 s of CPU a 4-baker night, 90 s a 2-baker Cakehalla
#: game (bench/reviews.py). Midnight Bakery's master counts played-out nights, all choices together:
REVIEW_ITERATIONS_MIDNIGHT_BAKERY = 4000
#: Cakehalla's counts sampled tables, on each of which every action still in the running is played
#: to the game's end:
REVIEW_ITERATIONS_CAKEHALLA = 300
#: Seconds between two runs of the review lane in each serving process.
REVIEW_SWEEP_SECONDS = 1.0
#: Seconds of wall time one run of the lane weighs decisions before it lets go of its thread (the
#: review stays its own; the next run goes on).
REVIEW_RUN_SECONDS = 5.0
#: Seconds without a heartbeat after which a review being worked is taken up by another lane (its
#: worker was killed): it resumes from the decisions already saved.
REVIEW_STALE_SECONDS = 60.0
