"""Moves sent on the table's socket: made as if posted, answered there, refused in words."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from games import services
from games.live.sessions import SESSION_ENDED
from games.models import Action, Game
from tests.conftest import client_for
from tests.live.test_consumer import batch_ids, keep_first
from tests.support.finished_games import play_to_first_results
from tests.support.sockets import (
    MADE,
    answers_a_move,
    closed_with,
    next_output,
    next_version,
    open_board,
    shown_version,
    socket,
    socket_of,
    stored_version,
)

pytestmark = pytest.mark.django_db(transaction=True)

TOO_MANY = 4429


def keep_fields(game: Game, user: User, *, version: int | None = None) -> dict[str, str]:
    """What the batch form posts to keep the user's first pastry (with #board-live's version
    and moment, as hx-include sends them)."""
    game.refresh_from_db()
    position = game.seats.get(user=user).position
    view = game.spec.engine.view(game.spec.engine.load(game.snapshot), position)
    action = {"type": "keep", "card": batch_ids(game, user)[0]}
    return {
        "action": json.dumps(action),
        "version": str(game.version if version is None else version),
        "moment": game.spec.moment(view) or "",
    }


async def send_move(ws: WebsocketCommunicator, fields: dict[str, Any]) -> str:
    """Send a move as live.js does; the socket's answer to it (pushes of others' moves that come
    first are passed over)."""
    await ws.send_to(text_data=json.dumps({"type": "play", "fields": fields}))
    while True:
        message = await ws.receive_from()
        if answers_a_move(message):
            return message


def stored(game: Game) -> list[tuple[int | None, dict[str, Any]]]:
    """Who made each stored action, and what."""
    return [(a.user_id, a.payload) for a in Action.objects.filter(game=game).order_by("seq")]


async def both_at_the_table(
    game: Game, player: User, rival: User
) -> tuple[WebsocketCommunicator, WebsocketCommunicator]:
    """The two bakers' sockets, each past its first board."""
    mine, theirs = await socket(game, player), await socket(game, rival)
    await open_board(mine)
    await open_board(theirs)
    return mine, theirs


def message_of(html: str) -> str:
    """The words of the board message an answer carries."""
    found = re.search(r'<p id="board-message"[^>]*>(.*?)</p>', html)
    assert found is not None, html[:300]
    return found.group(1)


async def test_a_move_on_the_socket_is_made_and_answered_there_and_pushed_to_the_rival(
    running_game: Game, player: User, rival: User
) -> None:
    mine, theirs = await both_at_the_table(running_game, player, rival)
    fields = await database_sync_to_async(keep_fields)(running_game, player)
    answer = await send_move(mine, fields)
    made = MADE.search(answer)
    assert made is not None and int(made.group(1)) == running_game.version + 1
    assert shown_version(answer) == int(made.group(1))  # its own new board comes with it
    assert shown_version(await theirs.receive_from()) == int(made.group(1))
    moves = await database_sync_to_async(stored)(running_game)
    assert moves[-1] == (player.pk, json.loads(fields["action"]))
    # The announcement of its own version brings nothing more: the next push is the rival's move.
    await database_sync_to_async(keep_first)(running_game, rival)
    assert await next_version(mine) == await database_sync_to_async(stored_version)(running_game)
    await mine.disconnect()
    await theirs.disconnect()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"action": "not json", "version": "VERSION"}, "That is not an action."),
        ({"action": "[1, 2]", "version": "VERSION"}, "That is not an action."),
        ({"action": '{"type": "keep", "card": "no-such-card"}', "version": "VERSION"}, ""),
        ({"action": '{"type": "keep"}'}, "The move did not say which table it was chosen on"),
        ({"action": '{"type": "keep"}', "version": "seven"}, "must be a whole number"),
        ({"action": "x" * 2100, "version": "VERSION"}, "too long to be a move"),
    ],
    ids=["not-json", "not-an-object", "no-such-card", "no-version", "version-not-a-number", "long"],
)
async def test_a_garbled_move_is_refused_in_words_with_the_board_and_changes_nothing(
    running_game: Game, player: User, fields: dict[str, str], words: str
) -> None:
    before = await database_sync_to_async(stored)(running_game)
    ws = await socket(running_game, player)
    await open_board(ws)
    sent = {k: v.replace("VERSION", str(running_game.version)) for k, v in fields.items()}
    answer = await send_move(ws, sent)
    assert MADE.search(answer) is None
    assert words in message_of(answer) and message_of(answer)
    assert 'id="board"' in answer and shown_version(answer) == running_game.version
    assert await database_sync_to_async(stored)(running_game) == before
    await ws.send_to(text_data=json.dumps({"type": "resync", "version": running_game.version}))
    assert shown_version(await ws.receive_from()) == running_game.version  # still open
    await ws.disconnect()


async def test_a_move_chosen_before_the_reveal_is_refused_as_stale(
    running_game: Game, player: User, rival: User
) -> None:
    ws = await socket(running_game, rival)
    await open_board(ws)
    chosen = await database_sync_to_async(keep_fields)(running_game, rival)
    await database_sync_to_async(keep_first)(running_game, player)
    await database_sync_to_async(keep_first)(running_game, rival)  # the reveal: a new pick
    before = await database_sync_to_async(stored)(running_game)
    answer = await send_move(ws, chosen)
    assert "moved on" in message_of(answer)
    assert await database_sync_to_async(stored)(running_game) == before
    await ws.disconnect()


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
async def test_someone_without_a_seat_is_told_and_nothing_is_made(
    running_game: Game, player: User, outsider: User, who: str
) -> None:
    ws = await socket(running_game, outsider if who == "outsider" else None)
    await open_board(ws)
    fields = await database_sync_to_async(keep_fields)(running_game, player)
    answer = await send_move(ws, fields)
    expected = "You do not sit at this game." if who == "outsider" else "Log in"
    assert expected in message_of(answer)
    assert await database_sync_to_async(stored)(running_game) == []
    await ws.disconnect()


@pytest.mark.parametrize(
    "message",
    [
        {"type": "play"},
        {"type": "play", "fields": ["action", "version"]},
        {"type": "play", "fields": {"action": {"type": "keep"}, "version": "3"}},
        {"type": "play", "fields": {f"f{i}": "x" for i in range(20)}},
    ],
    ids=["no-fields", "fields-not-a-map", "a-field-not-text", "too-many-fields"],
)
async def test_a_move_message_the_page_never_sends_closes_the_socket(
    running_game: Game, player: User, message: dict[str, Any]
) -> None:
    ws = await socket(running_game, player)
    await open_board(ws)
    await ws.send_to(text_data=json.dumps(message))
    assert await next_output(ws) == {"type": "websocket.close", "code": TOO_MANY}
    assert await database_sync_to_async(stored)(running_game) == []


async def test_a_move_on_an_ended_session_closes_the_socket_and_makes_nothing(
    running_game: Game, player: User, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    monkeypatch.setattr("games.live.sessions.send_to_group", lambda group, message: False)
    client: Client = await database_sync_to_async(client_for)(player)
    ws = socket_of(running_game, client)
    await open_board(ws)
    fields = await database_sync_to_async(keep_fields)(running_game, player)
    await database_sync_to_async(client.post)("/accounts/logout/")  # its close message is lost
    # No yes is trusted any longer (as when time has moved on): the next push asks in full.
    settings.SOCKET_SESSION_RECHECK = 0
    await ws.send_to(text_data=json.dumps({"type": "play", "fields": fields}))
    assert await closed_with(ws) == SESSION_ENDED
    assert await database_sync_to_async(stored)(running_game) == []


async def test_two_bakers_locking_on_their_sockets_at_once_are_both_stored(
    running_game: Game, player: User, rival: User
) -> None:
    mine, theirs = await both_at_the_table(running_game, player, rival)
    fields = [
        await database_sync_to_async(keep_fields)(running_game, user) for user in (player, rival)
    ]
    answers = await asyncio.gather(send_move(mine, fields[0]), send_move(theirs, fields[1]))
    assert all(MADE.search(a) for a in answers), [a[:200] for a in answers]
    moves = await database_sync_to_async(stored)(running_game)
    assert {user for user, _ in moves if user is not None} == {player.pk, rival.pk}
    await mine.disconnect()
    await theirs.disconnect()


async def test_a_move_that_fails_on_our_side_is_told_and_the_socket_stays_open(
    running_game: Game, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr("games.live.socket_moves.play_posted", broken)
    ws = await socket(running_game, player)
    await open_board(ws)
    fields = await database_sync_to_async(keep_fields)(running_game, player)
    answer = await send_move(ws, fields)
    assert "went wrong on our side" in message_of(answer)
    assert await database_sync_to_async(stored)(running_game) == []
    await ws.send_to(text_data=json.dumps({"type": "resync", "version": running_game.version}))
    assert shown_version(await ws.receive_from()) == running_game.version
    await ws.disconnect()


# --- results closed on the socket ---------------------------------------------------------

BACK = "Back to the ovens"


async def send_close(ws: WebsocketCommunicator, seen: str) -> str:
    """Close the results as live.js does (the form's `seen` field); the socket's answer."""
    await ws.send_to(text_data=json.dumps({"type": "close_results", "fields": {"seen": seen}}))
    return await ws.receive_from()


def close_by_post(game: Game, user: User) -> None:
    """Close the first results with the form's post, as a page without its socket does."""
    answer = client_for(user).post(f"/games/{game.pk}/results/close/", {"seen": "1"})
    assert answer.status_code == 302


def results_seen(game: Game, user: User) -> int:
    return game.seats.get(user=user).results_seen


async def test_results_closed_on_the_socket_redraw_this_tab_and_the_others_of_that_baker(
    running_game: Game, player: User, rival: User
) -> None:
    """The tap is answered on its own socket and makes a version (every change to a table does);
    the baker's other tab draws it; the rival's screen does not move."""
    await database_sync_to_async(play_to_first_results)(running_game)
    await database_sync_to_async(running_game.refresh_from_db)()
    version = running_game.version
    tab, other_tab, theirs = [await socket(running_game, u) for u in (player, player, rival)]
    for ws in (tab, other_tab, theirs):
        assert BACK in await open_board(ws)
    answer = await send_close(tab, "1")
    assert BACK not in answer and 'id="region-' in answer
    assert await database_sync_to_async(results_seen)(running_game, player) == 1
    assert await database_sync_to_async(stored_version)(running_game) == version + 1
    pushed = await other_tab.receive_from()
    assert BACK not in pushed and 'id="region-' in pushed
    pushed = await theirs.receive_from()  # the close's version, and nothing of the results
    assert 'id="board-live"' in pushed and 'id="region-results"' not in pushed
    # Nothing more comes to either (the tab is not sent its own change a second time): the next
    # push to each is the rival's own close.
    await database_sync_to_async(services.close_results)(running_game.pk, rival, 1)
    closed = await database_sync_to_async(stored_version)(running_game)
    assert await next_version(tab) == closed and await next_version(theirs) == closed
    for ws in (tab, other_tab, theirs):
        await ws.disconnect()


async def test_results_closed_already_on_the_socket_come_back_with_the_whole_board(
    running_game: Game, player: User
) -> None:
    """A tab that missed the push of its closed results is healed by its next tap."""
    await database_sync_to_async(play_to_first_results)(running_game)
    ws = await socket(running_game, player)
    await open_board(ws)
    await database_sync_to_async(close_by_post)(running_game, player)
    answer = await send_close(ws, "1")
    while BACK in answer or 'id="board"' not in answer:  # the post's own push may come first
        answer = await ws.receive_from()
    assert 'id="board"' in answer and BACK not in answer
    await ws.disconnect()


@pytest.mark.parametrize(
    ("who", "seen", "words"),
    [
        ("player", "nine", "must be a whole number"),
        ("player", "5", "not out yet"),
        ("outsider", "1", "You do not sit at this game."),
        ("anonymous", "1", "Log in to take a seat"),
    ],
    ids=["not-a-number", "not-out-yet", "outsider", "anonymous"],
)
async def test_a_refused_close_on_the_socket_is_told_in_words_and_changes_nothing(
    running_game: Game, player: User, outsider: User, who: str, seen: str, words: str
) -> None:
    await database_sync_to_async(play_to_first_results)(running_game)
    user = {"player": player, "outsider": outsider, "anonymous": None}[who]
    ws = await socket(running_game, user)
    await open_board(ws)
    answer = await send_close(ws, seen)
    assert words in message_of(answer) and 'id="board"' in answer
    assert await database_sync_to_async(results_seen)(running_game, player) == 0
    await ws.disconnect()
