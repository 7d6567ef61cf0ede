"""bench-web's browsers: what they read on the page and post is what the site accepts."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from accounts.models import User
from bench.web.__main__ import slices
from bench.web.client import superseding
from bench.web.page import Page, buttons, form_post, pushed_version
from bench.web.players import POLICIES
from games import services
from games.models import Game
from tests.conftest import client_for

MOVES = 40


def seated_table(kind: str, make_user: Callable[[str], User]) -> tuple[Game, list[User]]:
    """A started four-seat table of people."""
    people = [make_user(f"baker{i}") for i in range(4)]
    game = services.create_game(people[0], kind, 4)
    for person in people[1:]:
        services.join(game, person)
    services.start(game, people[0])
    return game, people


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_every_post_of_the_bench_browsers_is_a_move_the_site_takes(
    kind: str, make_user: Callable[[str], User]
) -> None:
    game, people = seated_table(kind, make_user)
    clients = [client_for(p) for p in people]
    pages = [Page(c.get(f"/games/{game.pk}/").content.decode()) for c in clients]
    policy, rng = POLICIES[kind], random.Random(7)
    moves = 0
    for _ in range(MOVES * 4):
        for client, page in zip(clients, pages, strict=True):
            page.apply(client.get(f"/games/{game.pk}/board/").content.decode())
            post = policy(page, rng)
            if post is None:
                continue
            answer = client.post(post.url, post.data, HTTP_HX_REQUEST="true")
            assert answer.status_code == 200, answer.content.decode()[:300]
            page.apply(answer.content.decode())
            moves += post.move
        if moves >= MOVES:
            break
    game.refresh_from_db()
    assert moves >= MOVES
    assert game.actions.filter(user__isnull=False).count() == moves


def test_a_piece_older_than_the_board_shown_brings_only_its_message() -> None:
    page = Page(
        '<div id="board"><div id="board-live" data-version="5"></div><p id="x">new</p></div>'
        '<p id="board-message"></p>'
    )
    fresh = page.apply(
        '<div id="board-live" data-version="4" hx-swap-oob="true"></div>'
        '<p id="x" class="old" hx-swap-oob="true"></p><p id="board-message" class="said"></p>'
    )
    assert not fresh
    assert page.version() == 5
    x, message = page.find("x"), page.find("board-message")
    assert x is not None and "class" not in x.attrs
    assert message is not None and message.attrs["class"] == "said"


def test_a_message_wholly_overwritten_by_a_later_one_is_skipped() -> None:
    older = '<section id="region-a" hx-swap-oob="true"></section>'
    newer = '<section id="region-a" hx-swap-oob="true"></section><div id="b" hx-swap-oob="true">'
    whole = '<div id="board" hx-swap-oob="true"><section id="region-a"></section></div>'
    assert superseding([older, newer]) == [newer]
    assert superseding([newer, older]) == [newer, older]
    assert superseding([older, whole, newer]) == [whole, newer]


def test_the_version_a_push_carries() -> None:
    html = '<div id="board-live"><input type="hidden" id="board-version" name="version" value="12">'
    assert pushed_version(html) == 12
    assert pushed_version("<p>no board</p>") is None


def test_a_runs_moves_are_sliced_by_when_they_were_sent() -> None:
    sent = [100.0, 100.5, 103.2, 107.9, 101.0]
    latencies = [0.1, 0.2, 0.3, 0.4, 0.5]
    assert slices(latencies, sent, 2.5) == [
        (0.0, [0.1, 0.2, 0.5]),
        (2.5, [0.3]),
        (5.0, []),  # a slice with no move is still shown
        (7.5, [0.4]),
    ]
    assert slices(latencies, sent, 0) == [] and slices([], [], 5) == []


def test_a_page_reads_elements_and_attributes_as_a_browser_parses_them() -> None:
    page = Page(
        '<!DOCTYPE html><html><body hx-headers=\'{"X-CSRFToken": "t"}\'>'
        '<div id="board"><div id="board-live" data-version="3"><!-- a note -->'
        '<form id="batch-form" hx-post="/games/1/play/"><input name="version" value="3">'
        '<input name="off" value="x" disabled><button name="action" value="{&quot;a&quot;:1}">'
        'Keep</button><button name="action" value="2" disabled>No</button></form></div></div>'
        "</body></html>"
    )
    form = page.find("batch-form")
    assert form is not None and [f.id for f in page.forms()] == ["batch-form"]
    assert [b.attrs["value"] for b in buttons(form)] == ['{"a":1}']
    assert form_post(page, form, buttons(form)[0]) == {"version": "3", "action": '{"a":1}'}
    assert all(e.tag != "#comment" and isinstance(e.tag, str) for e in page.root.walk())
    fits = page.apply(
        '<template id="board-diff" data-base="3" data-version="4"></template>'
        '<div id="board-live" data-version="4" hx-swap-oob="true"><p id="inside">new</p></div>'
    )
    assert fits and page.version() == 4
    assert page.find("batch-form") is None and page.find("inside") is not None
