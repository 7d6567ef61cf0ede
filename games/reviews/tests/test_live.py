"""A review page's socket (/ws/games/<id>/review/<seat>/): the review drawn anew as the lane
weighs each decision, closed once it is whole; refused to whoever may not read it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from accounts.models import User
from bakery_site.asgi import application
from games.models import Game
from games.reviews import lane
from games.reviews.live import NO_REVIEW
from games.reviews.services import ask_review
from games.reviews.tests.conftest import position_of
from tests.support.finished_games import finished_game
from tests.support.sockets import Communicator, closed_with, session_of

pytestmark = pytest.mark.django_db(transaction=True)

PROGRESS = re.compile(r"Weighing decision (\d+) of (\d+)\.")


async def review_socket(game: Game, seat: int, user: User | None) -> Any:
    """The review page's socket, logged in as the user (anonymous for None)."""
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        session = await database_sync_to_async(session_of)(user)
        headers.append((b"cookie", f"sessionid={session}".encode()))
    return Communicator(application, f"/ws/games/{game.pk}/review/{seat}/", headers=headers)


def a_run() -> None:
    """One run of the lane that weighs one decision and stops."""
    with override_settings(REVIEW_RUN_SECONDS=0.0):
        lane.work_reviews()


def night_of(people: list[User], private: bool = False) -> Game:
    return finished_game(people, bots=0, private=private)


async def test_the_socket_draws_each_decision_weighed_then_the_whole_review(
    player: User, rival: User
) -> None:
    night = await database_sync_to_async(night_of)([player, rival])
    seat = await database_sync_to_async(position_of)(night, player)
    await database_sync_to_async(ask_review)(night, player, seat)
    ws = await review_socket(night, seat, rival)  # a public game: anyone reads its reviews
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_from()
    assert "waiting its turn" in first and "hx-trigger" not in first  # no poll beside it
    seen = []
    while True:
        await database_sync_to_async(a_run)()
        html = await ws.receive_from()
        found = PROGRESS.search(html)
        if found is None:
            break
        seen.append(int(found.group(1)))
    assert seen[:3] == [2, 3, 4]  # one message a decision, each one further on
    if "Every decision" not in html:  # the last decision's part, then the whole review
        html = await ws.receive_from()
    assert "Every decision" in html and "review-summary" in html
    assert await closed_with(ws) == 1000


async def test_a_private_games_review_socket_is_refused_to_another(
    player: User, rival: User
) -> None:
    night = await database_sync_to_async(night_of)([player, rival], True)
    seat = await database_sync_to_async(position_of)(night, player)
    await database_sync_to_async(ask_review)(night, player, seat)
    ws = await review_socket(night, seat, rival)
    await ws.connect()
    assert await closed_with(ws) == 4404
    mine = await review_socket(night, seat, player)
    connected, _ = await mine.connect()
    assert connected and "waiting its turn" in await mine.receive_from()
    await mine.disconnect()


async def test_a_socket_opened_before_the_ask_hears_the_review_start(
    player: User, rival: User
) -> None:
    night = await database_sync_to_async(night_of)([player, rival])
    seat = await database_sync_to_async(position_of)(night, player)
    ws = await review_socket(night, seat, player)
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_from() == NO_REVIEW  # no review yet: the page keeps its form
    await database_sync_to_async(ask_review)(night, player, seat)
    await database_sync_to_async(a_run)()
    assert "Weighing decision 2 of" in await ws.receive_from()
    await ws.disconnect()
