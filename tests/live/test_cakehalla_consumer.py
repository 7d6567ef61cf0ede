"""Cakehalla over the table's websocket: each user's own render, never a secret of another."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.boards import diff_marker, render_regions
from games.engines import cakehalla as engine
from games.models import Game
from tests.support.cakehalla_tables import (
    SETUP,
    load_with,
    play,
    start_with,
    state_of,
    two_baker_table,
    user_at,
)
from tests.support.sockets import socket as open_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def socket(game: Game, user: User | None) -> Any:
    """A connected communicator for the game's socket, with the whole board already read."""
    ws = await open_socket(game, user)
    connected, _ = await ws.connect()
    assert connected
    return ws


def reserve_blind(game: Game, tier: int) -> tuple[str, list[list[str]]]:
    """The seat to act reserves the top of a pile; the card it got and the piles after."""
    card = engine.dump(state_of(game))["piles"][tier - 1][0]
    play(game, {"type": "reserve", "tier": tier})
    return card, engine.dump(state_of(game))["piles"]


@pytest.fixture
def table(player: User, rival: User) -> Game:
    return two_baker_table(player, rival)


async def test_connect_sends_the_whole_cakehalla_board(table: Game, player: User) -> None:
    ws = await socket(table, player)
    html = await ws.receive_from()
    assert html.startswith('<div id="board" class="board board-cakehalla"')
    for region in ("customers", "bakers", "counter", "market", "mine", "info", "dialog"):
        assert f'id="region-{region}"' in html
    await ws.disconnect()


@pytest.mark.parametrize("persona", ["owner", "rival", "outsider", "anonymous"])
async def test_a_blind_reservation_and_the_piles_never_reach_another_socket(
    table: Game, outsider: User, persona: str
) -> None:
    owner = await database_sync_to_async(user_at)(table, 0)
    rival = await database_sync_to_async(user_at)(table, 1)
    viewer = {"owner": owner, "rival": rival, "outsider": outsider, "anonymous": None}[persona]
    ws = await socket(table, viewer)
    first = await ws.receive_from()
    secret, piles = await database_sync_to_async(reserve_blind)(table, 3)
    pushed = await ws.receive_from()
    assert 'id="region-bakers"' in pushed
    for message in (first, pushed):
        assert (secret in message) == (persona == "owner" and message is pushed), persona
        for pile in piles:
            assert not any(card in message for card in pile), persona
    await ws.disconnect()


async def test_each_move_pushes_exactly_the_regions_that_changed(table: Game, player: User) -> None:
    ws = await socket(table, player)
    await ws.receive_from()
    before = await database_sync_to_async(render_regions)(table, player)
    before_version = table.version
    await database_sync_to_async(play)(
        table, {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]}
    )
    pushed = await ws.receive_from()
    await database_sync_to_async(table.refresh_from_db)()
    after = await database_sync_to_async(render_regions)(table, player)
    after_version = table.version
    changed = "".join(html for name, html in after.items() if before[name] != html)
    assert pushed == diff_marker(before_version, after_version) + changed
    assert 'id="region-market"' in pushed and 'id="region-customers"' not in pushed
    await ws.disconnect()


async def test_the_put_back_dialog_is_pushed_to_its_baker_only(table: Game) -> None:
    await database_sync_to_async(start_with)(
        table, SETUP, lambda s: load_with(s, 0, tokens=[3, 2, 2, 1, 1, 0])
    )
    owner = await database_sync_to_async(user_at)(table, 0)
    rival = await database_sync_to_async(user_at)(table, 1)
    mine, theirs = await socket(table, owner), await socket(table, rival)
    await mine.receive_from()
    await theirs.receive_from()
    await database_sync_to_async(play)(
        table, {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]}
    )
    assert "Put back down to 10" in await mine.receive_from()
    assert "Put back down to 10" not in await theirs.receive_from()
    await mine.disconnect()
    await theirs.disconnect()
