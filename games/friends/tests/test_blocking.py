"""Blocking: the blocked person can send no friend request or invitation, sit at none of the
blocker's tables, and is not seen in the blocker's chat; a block ends a friendship."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import friends
from accounts.models import Block, Friendship, User
from games import services
from games.boards import board_context, render_whole
from games.boards.chat import render_chat_log
from games.boards.renders import render_counts
from games.boards.shared import read
from games.events import invited
from games.friends import services as friendship
from games.models import Game, Seat
from tests.conftest import client_for
from tests.support.finished_games import finished_game
from tests.support.sockets import open_board, socket


def press(client: Client, person: User, verb: str) -> str:
    response = client.post(f"/games/friends/{person.username}/{verb}/", follow=True)
    assert response.status_code == 200
    return response.content.decode().replace("&#x27;", "'")


@pytest.mark.django_db
def test_blocking_from_the_profile_ends_the_friendship(player: User, rival: User) -> None:
    friendship.ask(player, rival)
    friendship.accept(rival, player)
    page = press(client_for(player), rival, "block")
    assert "You block bob" in page and 'data-friend="unblock"' in page
    assert Block.objects.filter(blocker=player, blocked=rival).exists()
    assert not Friendship.objects.exists()
    assert "You no longer block bob." in press(client_for(player), rival, "unblock")
    assert not Block.objects.exists() and not friends.are_friends(player, rival)


@pytest.mark.django_db
def test_a_blocked_person_cannot_send_a_friend_request(player: User, rival: User) -> None:
    friendship.block(player, rival)
    page = press(client_for(rival), player, "ask")
    assert "alice does not take friend requests from you." in page
    mine = press(client_for(player), rival, "ask")
    assert "You block bob: unblock them first." in mine
    assert not Friendship.objects.exists()


@pytest.mark.django_db
def test_a_blocked_person_is_offered_no_add_friend_button(player: User, rival: User) -> None:
    friendship.block(player, rival)
    page = client_for(rival).get(f"/u/{player.username}/").content.decode()
    assert 'data-friend="ask"' not in page


@pytest.mark.django_db
def test_a_blocked_person_cannot_invite_the_blocker(
    player: User, rival: User, django_capture_on_commit_callbacks: Any
) -> None:
    friendship.ask(player, rival)
    friendship.accept(rival, player)
    game = services.create_game(rival, "midnight-bakery", 3)
    got: list[dict[str, Any]] = []

    def listen(sender: Any, **kwargs: Any) -> None:
        got.append(kwargs)

    invited.connect(listen)
    try:
        friendship.block(player, rival)
        with django_capture_on_commit_callbacks(execute=True):
            response = client_for(rival).post(
                f"/games/{game.pk}/invite/", {"user": player.pk}, HTTP_HX_REQUEST="true"
            )
    finally:
        invited.disconnect(listen)
    assert "You cannot invite alice." in response.content.decode()
    assert got == []
    table_page = client_for(rival).get(game.get_absolute_url()).content.decode()
    assert 'id="invite-friends"' not in table_page  # the block ended the friendship


@pytest.mark.django_db
@pytest.mark.parametrize("hosts", [True, False])
def test_a_blocked_person_cannot_join_a_table_the_blocker_sits_at(
    player: User, rival: User, outsider: User, hosts: bool
) -> None:
    host = player if hosts else outsider
    game = services.create_game(host, "midnight-bakery", 4)
    if not hosts:
        services.join(game, player)
    friendship.block(player, rival)
    response = client_for(rival).post(f"/games/{game.pk}/join/", HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert "This table is not available to you." in response.content.decode()
    assert "has blocked you" not in response.content.decode()
    assert not Seat.objects.filter(game=game, user=rival).exists()


@pytest.mark.django_db
def test_the_blocker_cannot_join_the_blocked_persons_table(player: User, rival: User) -> None:
    game = services.create_game(rival, "midnight-bakery", 3)
    friendship.block(player, rival)
    with pytest.raises(services.NotAllowed, match="You block someone at this table"):
        services.join(game, player)


@pytest.mark.django_db
def test_others_still_join_and_the_blocked_may_join_elsewhere(
    player: User, rival: User, outsider: User
) -> None:
    friendship.block(player, rival)
    game = services.create_game(player, "midnight-bakery", 3)
    services.join(game, outsider)
    elsewhere = services.create_game(outsider, "midnight-bakery", 3)
    services.join(elsewhere, rival)
    assert Seat.objects.filter(user=rival, game=elsewhere).exists()


@pytest.fixture
def chatty(player: User, rival: User, outsider: User) -> Game:
    """A running table of three where each person said a line, spectators may chat."""
    game = services.create_game(player, "midnight-bakery", 3, spectator_chat=True)
    services.join(game, rival)
    services.join(game, outsider)
    services.start(game, player)
    game.refresh_from_db()
    for user, text in ((player, "alice bakes"), (rival, "bob kneads"), (outsider, "carol proofs")):
        services.chat.say(game, user, text)
    return game


@pytest.mark.django_db
def test_the_blockers_chat_hides_the_blocked_persons_lines_and_no_one_elses(
    chatty: Game, player: User, rival: User, outsider: User
) -> None:
    friendship.block(player, rival)
    as_blocker = render_chat_log(chatty, player)
    assert "bob kneads" not in as_blocker
    assert "alice bakes" in as_blocker and "carol proofs" in as_blocker
    as_third = render_chat_log(chatty, outsider)
    assert "bob kneads" in as_third and "alice bakes" in as_third
    page = client_for(player).get(chatty.get_absolute_url()).content.decode()
    assert "bob kneads" not in page and "carol proofs" in page
    log = client_for(player).get(f"/games/{chatty.pk}/chat/log/").content.decode()
    assert "bob kneads" not in log
    assert (
        "bob kneads" in client_for(outsider).get(f"/games/{chatty.pk}/chat/log/").content.decode()
    )


async def next_chat(ws: Any) -> str:
    """The next chat the socket pushes (a presence change pushed meanwhile is passed over)."""
    while True:
        message = await ws.receive_from()
        if 'id="chat-log"' in message:
            return str(message)


@pytest.mark.django_db(transaction=True)
async def test_a_block_redraws_the_blockers_chat_and_later_lines_stay_hidden(
    chatty: Game, player: User, rival: User, outsider: User
) -> None:
    mine = await socket(chatty, player)
    third = await socket(chatty, outsider)
    await open_board(mine)
    await open_board(third)
    client = await database_sync_to_async(client_for)(player)
    await database_sync_to_async(client.post)(f"/games/friends/{rival.username}/block/")
    redrawn = await next_chat(mine)
    assert "bob kneads" not in redrawn and "carol proofs" in redrawn
    await database_sync_to_async(services.chat.say)(chatty, rival, "bob is still here")
    assert "bob is still here" not in await next_chat(mine)
    assert "bob is still here" in await next_chat(third)
    await mine.disconnect()
    await third.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("offerer", "said"),
    [
        ("blocked", "A rematch with these players is not available to you."),
        ("blocker", "You block someone at this table: unblock them to play again."),
    ],
)
def test_no_rematch_brings_a_blocked_person_back_to_the_blockers_table(
    player: User, rival: User, offerer: str, said: str
) -> None:
    old = finished_game([player, rival], bots=1)
    friendship.block(player, rival)
    who = rival if offerer == "blocked" else player
    response = client_for(who).post(f"/games/{old.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and said in response.content.decode()
    assert not old.rematches.exists()


@pytest.mark.django_db
def test_a_deleted_account_leaves_no_friendship_request_or_block(
    player: User, rival: User, outsider: User
) -> None:
    friendship.ask(player, rival)
    friendship.accept(rival, player)
    friendship.ask(outsider, player)
    friendship.block(rival, outsider)
    friendship.block(player, outsider)
    services.delete_account(player, "a-long-baking-secret")
    assert friends.friend_ids(rival) == set() and friends.asking(player) == []
    assert list(Block.objects.values_list("blocker", "blocked")) == [(rival.pk, outsider.pk)]


def open_ids(user: User | None) -> tuple[list[int], int]:
    """The tables the lobby's Open tables list shows this person, and the queries it took."""
    client = client_for(user)
    with CaptureQueriesContext(connection) as ctx:
        page = client.get("/").content.decode()
    section = page.split("<h2>Open tables</h2>", 1)[1].split("</section>", 1)[0]
    shown = [int(n) for n in re.findall(r'href="/games/(\d+)/"', section)]
    return shown, len(ctx.captured_queries)


@pytest.mark.django_db
def test_the_lobby_leaves_out_open_tables_a_block_keeps_you_from(
    player: User, rival: User, outsider: User, make_user: Callable[[str], User]
) -> None:
    dave = make_user("dave")
    blockers = services.create_game(player, "midnight-bakery", 4)  # alice will block bob
    guest = services.create_game(dave, "cakehalla", 3)
    services.join(guest, outsider)  # bob will block carol, a guest there
    free = services.create_game(dave, "midnight-bakery", 3)
    before, queries_before = open_ids(rival)
    assert set(before) == {blockers.pk, guest.pk, free.pk}
    friendship.block(player, rival)
    friendship.block(rival, outsider)
    shown, queries_after = open_ids(rival)
    assert shown == [free.pk]
    assert queries_after == queries_before
    assert set(open_ids(None)[0]) == {blockers.pk, guest.pk, free.pk}
    assert set(open_ids(dave)[0]) == {blockers.pk}  # his own are under Your games


TAKE_A_SEAT = "Take a seat</button>"
KEPT_OUT = "You cannot take a seat at this table."
NOT_FOR_YOU = "This table is not available to you."
BLOCKING = "You block someone at this table: unblock them to take a seat here."


def table_page(game: Game, user: User) -> str:
    return client_for(user).get(game.get_absolute_url()).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("hosts", [True, False])
def test_a_blocked_person_cannot_open_the_waiting_room_of_the_blockers_table(
    player: User, rival: User, outsider: User, make_user: Callable[[str], User], hosts: bool
) -> None:
    host = player if hosts else make_user("dave")
    game = services.create_game(host, "midnight-bakery", 4)
    if not hosts:
        services.join(game, player)
    friendship.block(player, rival)
    response = client_for(rival).get(game.get_absolute_url())
    assert response.status_code == 403
    page = response.content.decode()
    assert NOT_FOR_YOU in page and TAKE_A_SEAT not in page and "block" not in page
    third = table_page(game, outsider)
    assert TAKE_A_SEAT in third and KEPT_OUT not in third
    # A page drawn before the block still had the button: pressed, it is refused in words.
    refused = client_for(rival).post(f"/games/{game.pk}/join/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 403 and NOT_FOR_YOU in refused.content.decode()
    assert not Seat.objects.filter(game=game, user=rival).exists()
    if hosts:
        services.add_bot(game, player, "random")
    services.start(game, host)
    assert client_for(rival).get(game.get_absolute_url()).status_code == 200  # watched as any


@pytest.mark.django_db
def test_the_blockers_profile_lists_no_open_table_to_the_blocked(
    player: User, rival: User, outsider: User
) -> None:
    waiting = services.create_game(player, "midnight-bakery", 3)
    running = finished_game([player, outsider], bots=1)  # a finished one: listed as played
    playing = services.create_game(player, "cakehalla", 2)
    services.join(playing, outsider)
    services.start(playing, player)
    friendship.block(player, rival)
    page = client_for(rival).get(f"/u/{player.username}/").content.decode()
    assert f'href="/games/{waiting.pk}/"' not in page
    assert f'href="/games/{playing.pk}/"' in page and f'href="/games/{running.pk}/"' in page
    for viewer in (outsider, player):
        seen = client_for(viewer).get(f"/u/{player.username}/").content.decode()
        assert f'href="/games/{waiting.pk}/"' in seen
    mine = client_for(rival).get(f"/u/{rival.username}/").content.decode()
    assert "Open and running games" not in mine


@pytest.mark.django_db
def test_the_blocker_is_offered_no_seat_at_the_blocked_persons_table(
    player: User, rival: User, outsider: User
) -> None:
    game = services.create_game(rival, "midnight-bakery", 3)
    friendship.block(player, rival)
    page = table_page(game, player)
    assert TAKE_A_SEAT not in page and BLOCKING in page and KEPT_OUT not in page
    with pytest.raises(services.NotAllowed):  # as the page says, joining is refused
        services.join(game, player)
    assert TAKE_A_SEAT in table_page(game, outsider)


@pytest.mark.django_db
def test_a_full_table_says_so_first_as_joining_does(
    player: User, rival: User, outsider: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 2)
    services.add_bot(game, player, "random")
    friendship.block(player, rival)
    with pytest.raises(services.ServiceError, match="Every seat at this table is taken"):
        services.join(game, rival)
    page = table_page(game, outsider)
    assert "Every seat is taken." in page and KEPT_OUT not in page


@pytest.mark.django_db
def test_who_a_block_keeps_out_is_read_once_for_every_viewer_of_a_version(
    player: User, rival: User, outsider: User, make_user: Callable[[str], User]
) -> None:
    game = services.create_game(player, "midnight-bakery", 4)
    friendship.block(player, rival)
    viewers = [rival, outsider, make_user("dave")]
    table = read(game)
    with CaptureQueriesContext(connection) as first:
        kept = [board_context(game, viewer, table)["kept_out"] for viewer in viewers]
    assert kept == ["blocked", "", ""]
    assert len(first.captured_queries) == 1
    with CaptureQueriesContext(connection) as seated_or_anonymous:
        kept = [
            board_context(game, viewer, read(game))["kept_out"]
            for viewer in (player, AnonymousUser())
        ]
    assert kept == ["", ""]
    assert not [q for q in seated_or_anonymous.captured_queries if "accounts_block" in q["sql"]]


@pytest.mark.django_db
def test_viewers_a_block_keeps_out_of_no_seat_still_share_the_waiting_room(
    player: User, rival: User, outsider: User, make_user: Callable[[str], User]
) -> None:
    game = services.create_game(player, "midnight-bakery", 4)
    friendship.block(player, rival)
    table = read(game)

    def drawn(viewer: User) -> tuple[str, int]:
        """The viewer's board, and how many regions were rendered for it alone."""
        before = render_counts["rendered"]
        return render_whole(game, viewer, table)[0], render_counts["rendered"] - before

    carol, _ = drawn(outsider)
    bob, bobs_own = drawn(rival)
    dave, daves_own = drawn(make_user("dave"))
    assert daves_own == 0 and dave == carol and TAKE_A_SEAT in dave
    assert bobs_own == 1 and TAKE_A_SEAT not in bob, "only bob's waiting room is his alone"


@pytest.mark.django_db(transaction=True)
async def test_pushes_to_a_blocked_persons_socket_offer_no_seat(
    player: User, rival: User, outsider: User, make_user: Callable[[str], User]
) -> None:
    dave = await database_sync_to_async(make_user)("dave")
    game = await database_sync_to_async(services.create_game)(player, "midnight-bakery", 4)
    await database_sync_to_async(friendship.block)(player, rival)
    blocked = await socket(game, rival)
    third = await socket(game, dave)
    first = await open_board(blocked)
    assert TAKE_A_SEAT not in first and KEPT_OUT in first
    assert TAKE_A_SEAT in await open_board(third)
    await database_sync_to_async(services.join)(game, outsider)
    pushed = await blocked.receive_from()
    assert "carol" in pushed and TAKE_A_SEAT not in pushed and KEPT_OUT in pushed
    assert TAKE_A_SEAT in await third.receive_from()
    await database_sync_to_async(services.add_bot)(game, player, "random")
    pushed = await blocked.receive_from()
    assert "random bot" in pushed and TAKE_A_SEAT not in pushed and KEPT_OUT in pushed
    assert TAKE_A_SEAT in await third.receive_from()
    await blocked.disconnect()
    await third.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_seat_goes_from_a_screen_when_someone_who_blocks_them_sits_down(
    player: User, rival: User, outsider: User
) -> None:
    game = await database_sync_to_async(services.create_game)(player, "midnight-bakery", 4)
    await database_sync_to_async(friendship.block)(outsider, rival)
    ws = await socket(game, rival)
    assert TAKE_A_SEAT in await open_board(ws)
    await database_sync_to_async(services.join)(game, outsider)
    pushed = await ws.receive_from()
    assert TAKE_A_SEAT not in pushed and KEPT_OUT in pushed
    await database_sync_to_async(services.leave)(game, outsider)
    assert TAKE_A_SEAT in await ws.receive_from()
    await ws.disconnect()
