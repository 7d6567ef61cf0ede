"""A person whose waiting socket could not open until after they were seated (the pairing's push
reached no socket of theirs) is still taken to their table: pairing.js opens the socket with the
search's start, and its first beat finds the table the search became."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, person

pytestmark = pytest.mark.e2e

TABLE = re.compile(r".*/games/(\d+)/$")


def look_for_two(page: Any) -> None:
    """Press "Find a game" for Cakehalla at two bakers exactly."""
    form = page.locator("form.find-form", has_text="Cakehalla")
    form.locator("select[name=fewest]").select_option("2")
    form.locator("select[name=most]").select_option("2")
    form.get_by_role("button", name="Find a game").click()


class HeldSockets:
    """The waiting page's sockets: refused (closed as a lost connection would be, so the page
    tries again) while held, then let through to the server. Their addresses are kept."""

    def __init__(self) -> None:
        self.held = True
        self.urls: list[str] = []

    def __call__(self, ws: Any) -> None:
        self.urls.append(ws.url)
        if self.held:
            ws.close(code=1000)
        else:
            ws.connect_to_server()


def test_a_page_whose_socket_opens_after_the_pairing_goes_to_the_table(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    pages = [person(browser, base, name) for name in ("late_rye", "late_spelt")]
    first, second = pages
    sockets = HeldSockets()
    first.route_web_socket(re.compile(r".*/ws/pairing/.*"), sockets)
    look_for_two(first)
    first.locator("#pairing-waiting").wait_for()
    deadline = time.monotonic() + PATIENCE / 1000
    while not sockets.urls:  # the page tried its socket, and was refused
        assert time.monotonic() < deadline, "the waiting page never opened its socket"
        first.wait_for_timeout(50)
    look_for_two(second)
    second.wait_for_url(TABLE)  # seated at once, with the first, by their own press's pass
    sockets.held = False
    first.wait_for_url(TABLE)
    assert first.url == second.url
    assert all("?since=" in url for url in sockets.urls), sockets.urls
    for page in pages:
        page.context.close()


def test_a_press_whose_answer_was_lost_still_ends_at_the_table(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    """The press reaches the server (the search is stored) but its answer never comes back, as
    when its process is killed: the page asks for the section again and follows the search to
    the table the second person's press seats them both at."""
    base = daphne_site["url"]
    pages = [person(browser, base, name) for name in ("lost_rye", "lost_spelt")]
    first, second = pages
    lost: list[int] = []

    def answer_lost(route: Any) -> None:
        lost.append(route.fetch().status)  # the server answers; the page never hears it
        route.abort("connectionreset")

    first.route(re.compile(r".*/pairing/look/$"), answer_lost)
    look_for_two(first)
    deadline = time.monotonic() + PATIENCE / 1000
    while not lost:  # the press reached the server, and its answer was dropped
        assert time.monotonic() < deadline, "the press never left the page"
        first.wait_for_timeout(50)
    assert lost == [200]
    look_for_two(second)
    second.wait_for_url(TABLE)
    first.wait_for_url(TABLE)
    assert first.url == second.url
    for page in pages:
        page.context.close()
