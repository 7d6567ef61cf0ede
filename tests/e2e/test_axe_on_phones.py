"""axe-core finds no violation at a phone's width (360 px) in German, the longest words (issue
50, item 6): the pages test_axe.py checks at 1280 px, the person's and a stranger's."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, open_tournament, sign_up
from tests.e2e.test_axe import choose, table_against_a_bot, tutorial, violations
from tests.e2e.test_phone_pages import demo_games

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

PHONE = {"width": 360, "height": 780}


def test_axe_finds_no_violation_at_360_px_in_german(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    demo_games(daphne_site["db"])
    # The tables are set up at a desktop's width (the helpers press buttons by their English
    # names), then every page is read in German on a phone.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, "axel-phone")
    page.goto(base + "/games/history/")
    finished = re.search(r'href="(/games/\d+/)replay/"', page.content())
    assert finished, "the demo games are in history"
    pages = [
        "/",
        table_against_a_bot(page, base, "midnight-bakery"),
        table_against_a_bot(page, base, "cakehalla"),
        tutorial(page, base),
        "/games/rules/midnight-bakery/",
        "/games/rules/cakehalla/",
        "/tournaments/",
        open_tournament(page, base).removeprefix(base),
        "/u/axel-phone/",
        "/games/history/",
        finished.group(1),  # a finished table: its results
        finished.group(1) + "replay/",
        "/accounts/settings/",
    ]
    page.set_viewport_size(PHONE)
    page.goto(base + "/")
    choose(page, "de")
    found: dict[str, list[str]] = {}
    for path in pages:
        page.goto(base + path)
        page.wait_for_load_state("load")
        found[path] = violations(page)
    stranger = browser.new_context(viewport=PHONE).new_page()
    stranger.set_default_timeout(PATIENCE)
    stranger.goto(base + "/accounts/login/")
    choose(stranger, "de")
    for path in ("/accounts/login/", "/accounts/signup/"):
        stranger.goto(base + path)
        found[path] = violations(stranger)
    assert {where: seen for where, seen in found.items() if seen} == {}
