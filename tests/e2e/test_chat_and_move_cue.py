"""In the browser: a chat line arrives live on the other screen, and the tab title and icon say
when the table waits for your move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import errors_seen, lock_first_pastry, two_at_a_table

pytestmark = pytest.mark.e2e

CUE = "\u25cf Your move \u00b7 "


def cue_shown(page: Any, shown: bool) -> None:
    """Wait until the title and the icon say (or stop saying) that it is this person's move."""
    page.wait_for_function(
        """([cue, shown]) => document.title.startsWith(cue) === shown &&
             document.getElementById("favicon").getAttribute("href").includes("favicon-move")
             === shown""",
        arg=[CUE, shown],
    )


def test_a_chat_line_arrives_live_and_the_title_follows_the_move(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    me, rival = two_at_a_table(browser, daphne_site["url"], ("kim", "lou"), "midnight-bakery")
    failed = errors_seen(rival)
    for page in (me, rival):
        page.locator("#batch-form button.card").first.wait_for()
        cue_shown(page, True)  # a night starts with everyone choosing

    me.fill("#chat-text", "<i>warm</i> ovens, good luck")
    me.get_by_role("button", name="Send").click()
    line = rival.locator("#chat-log .chat-text", has_text="<i>warm</i> ovens, good luck")
    line.wait_for()  # pushed over the table's socket: the rival did nothing
    assert rival.locator("#chat-log i").count() == 0  # shown as text, never as markup
    me.wait_for_function("() => document.getElementById('chat-text').value === ''")

    me.get_by_role("button", name="Send").click()  # an empty line is refused in words
    me.locator("#chat-message", has_text="Write a message first").wait_for()
    assert me.locator("#board-message").inner_text() == ""

    lock_first_pastry(me)  # kim locks her pick: she waits now
    cue_shown(me, False)
    lock_first_pastry(rival)  # lou locks: the next pick is kim's
    cue_shown(me, True)
    me.screenshot(path=str(artifacts / "chat-and-move-cue.png"), full_page=True)
    assert failed == []
    for page in (me, rival):
        page.context.close()


# Counts the tones the page plays, in place of the speakers.
FAKE_AUDIO = """
window.__tones = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    return { type: "", frequency: {}, connect: (n) => n, start: () => { window.__tones += 1; },
             stop: () => {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
             connect: (n) => n };
  }
};
"""


def test_the_move_sound_plays_only_once_turned_on(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    me, rival = two_at_a_table(
        browser, base, ("mo", "ned"), "midnight-bakery", init_script=FAKE_AUDIO
    )
    table = me.url
    lock_first_pastry(me)  # off by default: no tone
    lock_first_pastry(rival)
    cue_shown(me, True)
    assert me.evaluate("window.__tones") == 0

    me.goto(base + "/accounts/settings/")
    me.check("#id_move_sound")
    me.get_by_role("button", name="Save", exact=True).click()
    me.get_by_text("Your settings are saved.").wait_for()
    me.goto(table)
    me.wait_for_function("() => window.bakehouseLive === true")
    lock_first_pastry(me)  # the tap lets the page make sound
    cue_shown(me, False)
    lock_first_pastry(rival)
    cue_shown(me, True)
    me.wait_for_function("() => window.__tones === 1")
    for page in (me, rival):
        page.context.close()
