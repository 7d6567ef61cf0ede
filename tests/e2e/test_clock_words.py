"""The clocks on the board (static/js/clock.js) at the spans where units turn over: a 1-day turn's
first minute reads "1 d left + bank 2 d", never "0 h left"; no span says a unit full; and from
an hour on the browser says what the server's twin (clocks.span_words) says. The page's time is
Playwright's fixed clock, so every span is exact."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import pgettext

from games.services.clocks import span_words
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e

DAY, HOUR = 86400, 3600

# (seconds of the move's own time left, seconds of bank behind it, what the clock says)
RUNNING = [
    (DAY - 0.5, 2 * DAY, "1 d left + bank 2 d"),  # the first second of a 1-day turn
    (DAY - 1, 2 * DAY, "1 d left + bank 2 d"),  # 23 h 59 min 59 s
    (DAY, 2 * DAY, "1 d left + bank 2 d"),
    (DAY + 1, 3 * DAY, "1 d left + bank 3 d"),
    (7 * DAY, 7 * DAY, "7 d left + bank 7 d"),
    (3 * DAY - 1, 3 * DAY, "3 d left + bank 3 d"),
    (HOUR - 0.5, 2 * DAY, "1 h left + bank 2 d"),
    (5 * HOUR + 20 * 60, 2 * DAY, "5 h 20 min left + bank 2 d"),
    (59.9, 120, "1:00 + bank 2:00"),  # a normal pace's last minute
    (59.9, 0, "1:00"),
]
# (seconds of bank left once the move's own time ran out, what the clock says)
BANK = [(2 * DAY, "bank 2 d left"), (DAY - 1, "bank 1 d left"), (59.9, "bank 1:00")]


def clock_words(page: Any, spans: list[tuple[float, float]], head: str = "") -> list[str]:
    """What clock.js writes on a clock for each (seconds to the move's end, seconds to the
    deadline) at a fixed now; `head`, the page's units and script words, if any (English
    without)."""
    page.clock.set_fixed_time(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    page.goto("about:blank")
    now = page.evaluate("() => Date.now()")
    clocks = "".join(
        f'<span class="clock" data-deadline="{now + round(deadline * 1000)}"'
        f' data-move-ends="{now + round(ends * 1000)}"></span>'
        for ends, deadline in spans
    )
    page.set_content(f'{head}<div id="live" data-server-now="{now}"></div>{clocks}')
    page.add_script_tag(path=str(ROOT / "static" / "js" / "words.js"))
    page.add_script_tag(path=str(ROOT / "static" / "js" / "clock.js"))
    page.evaluate("() => document.dispatchEvent(new Event('bakehouse:swapped'))")
    return list(page.locator(".clock").all_inner_texts())


def test_a_clock_never_says_a_unit_full_and_agrees_with_the_server(browser: Any) -> None:
    page = browser.new_page()
    # A bank-only clock: its move's own time ran out a second ago, so the bank drains.
    spans = [(move, move + bank) for move, bank, _ in RUNNING] + [(-1.0, bank) for bank, _ in BANK]
    said = clock_words(page, spans)
    expected = [words for *_, words in RUNNING] + [words for _, words in BANK]
    assert said == expected
    for words in said:
        assert not any(full in words for full in ("0 h", "24 h", "60 min", "60:")), words
    for move, bank, words in RUNNING:
        if move >= HOUR:
            assert words == f"{span_words(move)} left + bank {span_words(bank)}"
    page.close()


def test_a_clock_speaks_the_pages_language(browser: Any) -> None:
    """The words a page gives its scripts (templates/_script_words.html, read through
    static/js/words.js) and base.html's units: a German page's clocks say German."""
    with translation.override("de"):
        units = pgettext("units of time: seconds, minutes, hours, days", "s min h d")
        head = f'<meta name="units-of-time" content="{units}">' + render_to_string(
            "_script_words.html"
        )
    page = browser.new_page()
    spans = [(DAY - 1, 3 * DAY), (-1.0, 2 * DAY), (-2.0, -1.0), (59.9, 179.9)]
    said = clock_words(page, spans, head)
    assert said == [
        "noch 1 Tg. + Reserve 2 Tg.",
        "Reserve: noch 2 Tg.",
        "Zeit abgelaufen",
        "1:00 + Reserve 2:00",
    ]
    page.close()
