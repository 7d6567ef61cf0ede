"""Move clocks: each seat's deadline and bank, stored on the seat so a reload or restart keeps them.

The clocks' home; this package hands on the names of its modules (callers say clocks.wind):
paces.py: a table's pace and a span in words; timing.py: the clocks' time (now);
winding.py: a seat's clock started, stopped and held as the moves come, whose time ran out;
vacations.py: clocks stood still by a vacation, and a person's whereabouts;
deadlines.py: what fires a deadline (the queries behind the runner's timers and sweep);
stand_in.py: the stand-in's move once a deadline passed, and the hand-over after too many;
check.py: the clocks' own check of stored games.
"""

from games.services.clocks.paces import DAY, HOUR, PACES, Pace, pace, span_words
from games.services.clocks.timing import now
from games.services.clocks.vacations import (
    NOWHERE,
    Span,
    Whereabouts,
    away_spans,
    away_until,
    day_words,
    paused,
    run_clock,
    vacations_now,
    whereabouts,
)
from games.services.clocks.winding import (
    clear,
    clock_starts,
    first_clocks_at,
    held_until,
    move_ends,
    overdue,
    pace_house_bots,
    stop,
    turn_goes_on,
    waits_on,
    wind,
)

__all__ = [
    "DAY",
    "HOUR",
    "NOWHERE",
    "PACES",
    "Pace",
    "Span",
    "Whereabouts",
    "away_spans",
    "away_until",
    "clear",
    "clock_starts",
    "day_words",
    "first_clocks_at",
    "held_until",
    "move_ends",
    "now",
    "overdue",
    "pace",
    "pace_house_bots",
    "paused",
    "run_clock",
    "span_words",
    "stop",
    "turn_goes_on",
    "vacations_now",
    "waits_on",
    "whereabouts",
    "wind",
]
