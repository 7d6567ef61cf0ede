"""A moderator's actions reach the sockets: a deactivated person's close, an abort is pushed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Permission

from accounts.models import User
from games.models import Game
from games.services import moderation
from tests.support.sockets import closed_with, open_board, socket

pytestmark = pytest.mark.django_db(transaction=True)

ACCOUNT_CLOSED = 4402


@pytest.fixture
def moderator(make_user: Callable[[str], User]) -> User:
    """A moderator by permissions (a transactional test's flush drops the migration's group)."""
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["abort_game", "deactivate_user"])
    )
    return User.objects.get(pk=user.pk)


async def test_deactivation_closes_the_sockets_and_the_rival_sees_a_bot_seated(
    running_game: Game, player: User, rival: User, moderator: User
) -> None:
    theirs = await socket(running_game, rival)
    mine = await socket(running_game, player)
    await open_board(theirs)
    await open_board(mine)
    await database_sync_to_async(moderation.deactivate)(rival, moderator, "abuse")
    assert await closed_with(theirs) == ACCOUNT_CLOSED  # the page says a moderator closed it
    # The player's screen gets the new table: bob's seat is now played by a bot.
    html = await mine.receive_from()
    while '<span class="player">bob</span> <span class="tag">resigned</span>' not in html:
        html = await mine.receive_from()
    seat = await database_sync_to_async(running_game.seats.get)(user=rival)
    assert seat.bot and seat.resigned
    await mine.disconnect()


async def test_an_abort_is_pushed_to_every_screen_with_its_reason(
    running_game: Game, player: User, rival: User, moderator: User
) -> None:
    screens = [await socket(running_game, user) for user in (player, rival, None)]
    for ws in screens:
        await open_board(ws)
    await database_sync_to_async(moderation.abort)(running_game, moderator, "Server trouble.")
    for ws in screens:
        html = await ws.receive_from()
        while "A moderator stopped this game" not in html:
            html = await ws.receive_from()
        assert "Server trouble." in html
        await ws.disconnect()
