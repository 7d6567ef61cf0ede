"""In the browser, a tournament's chat answers a post as the table's chat does (static/js/chat.js,
one script for both): an empty line is refused in words and the box keeps what was typed; a line
taken clears the box and arrives in the log, on the maker's page and on a watcher's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pages import errors_seen, open_tournament, person

pytestmark = pytest.mark.e2e


def test_a_tournament_chat_line_is_refused_in_words_or_taken_and_the_box_cleared(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    maker = person(browser, base, "chat_maker")
    url = open_tournament(maker, base)
    maker.goto(url)
    maker.wait_for_function("() => document.body.dataset.tournamentLive === 'yes'")

    maker.locator("#tournament-chat-form").get_by_role("button", name="Send").click()
    said = maker.locator("#tournament-chat-message.error", has_text="Write a message first")
    said.wait_for()

    failed = errors_seen(maker)  # from here on, no refusal
    box = maker.locator("#tournament-chat-text")
    box.fill("good luck, bakers")
    maker.locator("#tournament-chat-form").get_by_role("button", name="Send").click()
    maker.locator("#tournament-chat-log", has_text="good luck, bakers").wait_for()
    maker.wait_for_function(
        """() => document.getElementById('tournament-chat-text').value === ''
             && document.getElementById('tournament-chat-message').textContent === ''"""
    )
    assert "error" not in (maker.locator("#tournament-chat-message").get_attribute("class") or "")
    assert failed == []
    maker.context.close()
