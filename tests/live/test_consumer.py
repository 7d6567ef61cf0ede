"""The table's websocket: whole board on connect, each user's own render after every change."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games import services
from games.boards import (
    board_context,
    diff_marker,
    region_prints,
    render_board,
    render_regions,
    render_whole,
)
from games.models import Game
from tests.support.finished_games import play_to_first_results
from tests.support.sockets import (
    next_output,
    next_version,
    shown_version,
    socket,
    stored_version,
)

pytestmark = pytest.mark.django_db(transaction=True)


def batch_ids(game: Game, user: User) -> list[str]:
    engine = game.spec.engine
    game.refresh_from_db()
    position = game.seats.get(user=user).position
    return [c["id"] for c in engine.view(engine.load(game.snapshot), position)["batch"]]


def keep_first(game: Game, user: User) -> None:
    game.refresh_from_db()
    card = batch_ids(game, user)[0]
    services.play(game, user, {"type": "keep", "card": card}, game.version)


async def test_connect_sends_the_whole_board_with_own_batch_only(
    running_game: Game, player: User, rival: User
) -> None:
    mine = await database_sync_to_async(batch_ids)(running_game, player)
    theirs = await database_sync_to_async(batch_ids)(running_game, rival)
    ws = await socket(running_game, player)
    connected, _ = await ws.connect()
    assert connected
    html = await ws.receive_from()
    assert html.startswith('<div id="board"')
    assert all(card in html for card in mine)
    assert not any(card in html for card in theirs)
    await ws.disconnect()


async def test_after_an_action_the_socket_gets_exactly_a_fresh_render(
    running_game: Game, player: User, rival: User
) -> None:
    ws = await socket(running_game, player)
    await ws.connect()
    await ws.receive_from()
    before = await database_sync_to_async(render_regions)(running_game, player)
    before_version = running_game.version
    await database_sync_to_async(keep_first)(running_game, rival)
    pushed = await ws.receive_from()
    await database_sync_to_async(running_game.refresh_from_db)()
    after = await database_sync_to_async(render_regions)(running_game, player)
    after_version = running_game.version
    changed = "".join(html for name, html in after.items() if before[name] != html)
    assert pushed == diff_marker(before_version, after_version) + changed
    assert 'id="board-version"' in pushed
    await ws.disconnect()


async def test_a_spectator_gets_the_spectator_view(
    running_game: Game, player: User, rival: User, outsider: User
) -> None:
    batches = await database_sync_to_async(batch_ids)(running_game, player)
    batches += await database_sync_to_async(batch_ids)(running_game, rival)
    ws = await socket(running_game, outsider)
    connected, _ = await ws.connect()
    assert connected
    html = await ws.receive_from()
    assert "You are watching" in html
    assert not any(card in html for card in batches)
    await ws.disconnect()


async def test_the_start_pushes_the_whole_board_to_the_waiting_room(
    open_table: Game, player: User, rival: User
) -> None:
    await database_sync_to_async(services.join)(open_table, rival)
    ws = await socket(open_table, rival)
    await ws.connect()
    first = await ws.receive_from()
    assert "Take a seat" not in first and "Leave the table" in first
    await database_sync_to_async(services.start)(open_table, player)
    html = await ws.receive_from()
    assert html.startswith('<div id="board"') and "Your batch" in html
    await ws.disconnect()


async def test_a_private_table_refuses_an_uninvited_socket(player: User, outsider: User) -> None:
    game = await database_sync_to_async(services.create_game)(
        player, "midnight-bakery", 2, private=True
    )
    ws = await socket(game, outsider)
    await ws.connect()  # accepted, then closed at once with the code the page explains
    assert await next_output(ws) == {"type": "websocket.close", "code": 4404}


async def test_a_foreign_origin_is_refused(running_game: Game, player: User) -> None:
    ws = await socket(running_game, player, origin=b"http://evil.example")
    connected, _ = await ws.connect()
    assert not connected


def pick_for(game: Game, user: User, rng_index: int) -> None:
    """The user makes the n-th legal move, if any."""
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    legal = engine.legal_actions(engine.load(game.snapshot), position)
    if legal:
        services.play(game, user, legal[rng_index % len(legal)], game.version)


async def test_no_push_of_a_scripted_night_shows_the_players_batch_to_others(
    running_game: Game, player: User, rival: User, outsider: User
) -> None:
    watchers = [await socket(running_game, rival), await socket(running_game, outsider)]
    for ws in watchers:
        await ws.connect()
        await ws.receive_from()
    # Each push is held against the player's batch at the version it carries: on a loaded
    # machine a presence push can come between, and an earlier push rightly shows the rival a
    # batch that passes to the player a step later.
    start = await database_sync_to_async(stored_version)(running_game)
    hidden_at = {start: await database_sync_to_async(batch_ids)(running_game, player)}
    for step in range(12):
        actor = player if step % 2 == 0 else rival
        await database_sync_to_async(pick_for)(running_game, actor, step)
        now = await database_sync_to_async(stored_version)(running_game)
        hidden_at[now] = await database_sync_to_async(batch_ids)(running_game, player)
        for ws in watchers:
            shown = None
            while shown is None or shown < now:
                pushed = await ws.receive_from()
                shown = shown_version(pushed)
                hidden = hidden_at.get(shown if shown is not None else now, hidden_at[now])
                assert not [card for card in hidden if card in pushed], (step, shown)
    for ws in watchers:
        await ws.disconnect()


async def test_closing_results_in_one_tab_closes_them_in_the_others(
    running_game: Game, player: User, rival: User
) -> None:
    await database_sync_to_async(play_to_first_results)(running_game)
    tabs = [await socket(running_game, player) for _ in range(2)]
    theirs = await socket(running_game, rival)
    for ws in [*tabs, theirs]:
        await ws.connect()
        assert "Back to the ovens" in await ws.receive_from()
    await database_sync_to_async(services.close_results)(running_game, player, 1)
    for ws in tabs:
        pushed = await ws.receive_from()
        assert 'id="region-results"' in pushed and "Back to the ovens" not in pushed
    pushed = await theirs.receive_from()  # the close's version, and nothing of the results
    assert 'id="board-live"' in pushed and 'id="region-results"' not in pushed
    await database_sync_to_async(services.close_results)(running_game, rival, 1)  # a sentinel
    closed = await database_sync_to_async(stored_version)(running_game)
    assert await next_version(theirs) == closed  # nothing came between
    for ws in [*tabs, theirs]:
        await ws.disconnect()


async def test_results_closed_by_one_player_stay_open_for_the_other(
    running_game: Game, player: User, rival: User
) -> None:
    """The renders of the table's version outlive the closing (each is keyed by what its
    template reads), yet neither player is ever sent the other's results region."""
    await database_sync_to_async(play_to_first_results)(running_game)
    mine, theirs = await socket(running_game, player), await socket(running_game, rival)
    for ws in (mine, theirs):
        await ws.connect()
        assert "Back to the ovens" in await ws.receive_from()
    await database_sync_to_async(services.close_results)(running_game, player, 1)
    assert "Back to the ovens" not in await mine.receive_from()
    later = [await socket(running_game, player), await socket(running_game, rival)]
    for ws in later:
        await ws.connect()
    assert "Back to the ovens" not in await later[0].receive_from()
    assert "Back to the ovens" in await later[1].receive_from()
    for ws in (mine, theirs, *later):
        await ws.disconnect()


async def test_a_seated_player_sees_the_cancel_live(
    open_table: Game, player: User, rival: User
) -> None:
    await database_sync_to_async(services.join)(open_table, rival)
    ws = await socket(open_table, rival)
    await ws.connect()
    await ws.receive_from()
    await database_sync_to_async(services.cancel)(open_table, player)
    pushed = await ws.receive_from()
    assert "alice cancelled this table" in pushed and "Leave the table" not in pushed
    await ws.disconnect()


@pytest.mark.parametrize("who", ["player", "nobody"])
def test_one_context_renders_the_same_board_and_regions_as_two(
    running_game: Game, player: User, who: str
) -> None:
    user = player if who == "player" else AnonymousUser()
    whole = render_whole(running_game, user)
    ctx = board_context(running_game, user)
    marks = region_prints(running_game, ctx)
    regions = render_regions(running_game, user)
    assert whole == (
        render_board(running_game, user),
        {name: (mark, hash(regions[name])) for name, mark in marks.items()},
    )
