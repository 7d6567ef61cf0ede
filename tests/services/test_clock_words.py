"""How a clock says a span in words (games/services/clocks/paces.py span_words, the server's
twin of static/js/clock.js): rounded up as a countdown is, and never a unit full ("0 h", "24 h",
"60 min").
The browser's own words at the same spans are checked in tests/e2e/test_clock_words.py."""

from __future__ import annotations

import pytest

from games.services.clocks import PACES, Pace, span_words

DAY, HOUR = 86400, 3600


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (DAY - 1, "1 d"),  # 23 h 59 min 59 s: the first second of a 1-day turn
        (DAY - 0.5, "1 d"),
        (DAY, "1 d"),
        (DAY + 1, "1 d"),
        (DAY + HOUR + 61, "1 d 1 h"),  # minutes are dropped beside days
        (2 * DAY, "2 d"),
        (3 * DAY, "3 d"),
        (7 * DAY, "7 d"),
        (HOUR - 0.5, "1 h"),
        (HOUR - 59, "1 h"),  # 59 min 1 s rounds up to the hour, not to "60 min"
        (HOUR, "1 h"),
        (5 * HOUR + 20 * 60, "5 h 20 min"),
        (12 * 60, "12 min"),
        (59.9, "60 s"),
        (45, "45 s"),
        (0.2, "1 s"),
        (0, "0 s"),
    ],
)
def test_a_span_is_rounded_up_and_never_says_a_unit_full(seconds: float, words: str) -> None:
    assert span_words(seconds) == words


def test_the_paces_say_their_clocks_in_whole_units() -> None:
    said = {name: Pace(*seconds).words() for name, seconds in PACES.items()}
    assert said == {
        "normal": "60 s a move plus a 120 s bank",
        "fast": "20 s a move plus a 60 s bank",
        "day1": "1 d a move plus a 2 d bank",
        "day3": "3 d a move plus a 3 d bank",
        "day7": "7 d a move plus a 7 d bank",
    }
    assert span_words(60 * 0.4) == "24 s"  # a scaled pace's float error is not a second more
