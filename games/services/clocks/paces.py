"""A table's pace: seconds for each move and a bank for the game (Pace, PACES, pace), and a span
of time in the clocks' words (span_words)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext, pgettext

from games.models import TURN_BASED, Game

DAY = 86400.0
HOUR = 3600.0


@dataclass(frozen=True)
class Pace:
    """Seconds for each move and the bank for the whole game."""

    per_move: float
    bank: float
    turn_based: bool = False

    def words(self) -> str:
        """The clock in words ("1 d a move plus a 2 d bank"), in the language active."""
        return gettext("%(move)s a move plus a %(bank)s bank") % {
            "move": span_words(self.per_move),
            "bank": span_words(self.bank),
        }


PACES: dict[str, tuple[float, float]] = {
    "normal": (60, 120),
    "fast": (20, 60),
    "day1": (DAY, 2 * DAY),
    "day3": (3 * DAY, 3 * DAY),
    "day7": (7 * DAY, 7 * DAY),
}


UNITS_CONTEXT = "units of time: seconds, minutes, hours, days"
UNITS = "s min h d"
"""The clocks' units in the order seconds, minutes, hours, days; the page hands the same words to
its scripts (templates/base.html's <meta name="units-of-time">: clock.js, tournament.js)."""


def units() -> list[str]:
    """The clocks' units in the language active: seconds, minutes, hours, days."""
    said = pgettext(UNITS_CONTEXT, UNITS).split()
    return said if len(said) == 4 else UNITS.split()


def span_words(seconds: float) -> str:
    """A span of time as a clock says it: "45 s", "12 min", "5 h 20 min", "2 d 3 h".

    Rounded up, as a countdown is (it never says less time than is left): to the second, and to
    the minute from 10 minutes on; the units are taken from the rounded span, so 23 h 59 min 59 s
    is "1 d", never "24 h" or "0 h". From an hour on it says what static/js/clock.js says. Its
    units are the language's (units()).
    """
    s, m, h, d = units()
    whole = max(0, -(-round(seconds * 1000) // 1000))  # whole seconds, up (to the ms first)
    if whole < 600:
        return f"{whole} {s}"
    minutes = -(-whole // 60)
    if minutes < 60:
        return f"{minutes} {m}"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} {d} {hours} {h}" if hours else f"{days} {d}"
    return f"{hours} {h} {minutes} {m}" if minutes else f"{hours} {h}"


def pace(game: Game) -> Pace | None:
    """The table's clock, or None at a relaxed table (PACE_SCALE shortens it for tests)."""
    seconds = PACES.get(game.pace)
    if seconds is None:
        return None
    scale = settings.PACE_SCALE
    return Pace(seconds[0] * scale, seconds[1] * scale, game.pace in TURN_BASED)
