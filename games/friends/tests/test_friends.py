"""Friends: requests from a profile, accepted or declined; the friends page (who is online, at
which table they may be watched); the limits. (Inviting a friend to your table is tested with
the notifications: games/notifications/tests/test_invitations.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts import friends
from accounts.models import Friendship, User
from games import services
from games.friends import services as friendship
from games.live import caps
from games.models import Game
from games.services import presence
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def press(client: Client, person: User, verb: str) -> str:
    """Press a friend button on the person's profile; the profile shown after, its messages."""
    response = client.post(f"/games/friends/{person.username}/{verb}/", follow=True)
    assert response.status_code == 200
    return response.content.decode()


def befriend(a: User, b: User) -> None:
    friendship.ask(a, b)
    friendship.accept(b, a)


def test_a_request_from_the_profile_becomes_a_friendship_once_accepted(
    player: User, rival: User
) -> None:
    page = client_for(player).get(f"/u/{rival.username}/").content.decode()
    assert 'data-friend="ask"' in page and "csrfmiddlewaretoken" in page
    assert "You asked bob to be your friend." in press(client_for(player), rival, "ask")
    assert not friends.are_friends(player, rival)
    their_view = client_for(rival).get(f"/u/{player.username}/").content.decode()
    assert "alice asks to be your friend." in their_view and 'data-friend="accept"' in their_view
    assert "You and alice are friends now." in press(client_for(rival), player, "accept")
    assert friends.are_friends(player, rival) and friends.friend_ids(rival) == {player.pk}


def test_asking_someone_who_asked_you_makes_you_friends(player: User, rival: User) -> None:
    friendship.ask(rival, player)
    assert "You and bob are friends now." in press(client_for(player), rival, "ask")
    assert Friendship.objects.get().accepted


def test_a_declined_request_is_gone_and_may_be_sent_again(player: User, rival: User) -> None:
    friendship.ask(player, rival)
    assert "You declined alice&#x27;s friend request." in press(
        client_for(rival), player, "decline"
    )
    assert not Friendship.objects.exists()
    friendship.ask(player, rival)
    assert Friendship.objects.filter(from_user=player, accepted=False).exists()


def test_removing_a_friend_ends_the_friendship_for_both(player: User, rival: User) -> None:
    befriend(player, rival)
    assert "bob is no longer on your friends list." in press(client_for(player), rival, "remove")
    assert not friends.are_friends(rival, player) and not Friendship.objects.exists()


@pytest.mark.parametrize(
    ("setup", "who", "verb", "said"),
    [
        ("none", "self", "ask", "You cannot befriend yourself."),
        ("friends", "rival", "ask", "You and bob are already friends."),
        ("asked", "rival", "ask", "You already asked bob; they have not answered yet."),
        ("none", "rival", "accept", "bob has not asked to be your friend."),
        ("asked", "rival", "accept", "bob has not asked to be your friend."),
        ("none", "rival", "decline", "bob has not asked to be your friend."),
        ("none", "rival", "remove", "You and bob are not friends."),
        ("none", "rival", "unblock", "You do not block bob."),
        ("none", "self", "block", "You cannot block yourself."),
    ],
)
def test_a_refused_friend_change_says_why_and_changes_nothing(
    player: User, rival: User, setup: str, who: str, verb: str, said: str
) -> None:
    if setup == "friends":
        befriend(player, rival)
    elif setup == "asked":
        friendship.ask(player, rival)
    before = list(Friendship.objects.values_list("from_user", "to_user", "accepted"))
    page = press(client_for(player), player if who == "self" else rival, verb)
    assert said in page.replace("&#x27;", "'")
    assert list(Friendship.objects.values_list("from_user", "to_user", "accepted")) == before


def test_friend_buttons_need_a_post_and_a_known_change(player: User, rival: User) -> None:
    client = client_for(player)
    assert client.get(f"/games/friends/{rival.username}/ask/").status_code == 405
    assert client.post(f"/games/friends/{rival.username}/adopt/").status_code == 404
    assert client.post("/games/friends/nobody-at-all/ask/").status_code == 404
    assert Client().post(f"/games/friends/{rival.username}/ask/").status_code == 302
    assert not Friendship.objects.exists()


def test_a_forged_next_does_not_lead_off_the_site(player: User, rival: User) -> None:
    response = client_for(player).post(
        f"/games/friends/{rival.username}/ask/", {"next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response["Location"] == f"/u/{rival.username}/"


def test_friend_requests_are_rate_limited(
    player: User, make_user: Callable[[str], User], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(friendship, "REQUESTS_PER_HOUR", 2)
    others = [make_user(f"baker{i}") for i in range(3)]
    friendship.ask(player, others[0])
    friendship.ask(player, others[1])
    page = press(client_for(player), others[2], "ask")
    assert "You sent 2 friend requests this hour; try again later." in page
    assert Friendship.objects.count() == 2


# --- the friends page --------------------------------------------------------------------


def socket_at(game: Game, user: User, channel: str) -> None:
    presence.opened(channel, game.pk, user.pk)


def friends_page(user: User) -> str:
    response = client_for(user).get("/games/friends/")
    assert response.status_code == 200
    return response.content.decode()


def friend_line(page: str, user: User) -> str:
    return page.split(f'data-friend-id="{user.pk}"', 1)[1].split("</li>", 1)[0]


def test_the_friends_page_shows_who_is_online_and_at_which_public_table(
    player: User, rival: User, outsider: User
) -> None:
    befriend(player, rival)
    befriend(player, outsider)
    game = services.create_game(rival, "midnight-bakery", 2)
    socket_at(game, rival, "rival!1")
    page = friends_page(player)
    assert "online now" in friend_line(page, rival)
    assert f'href="/games/{game.pk}/"' in friend_line(page, rival)
    assert "offline" in friend_line(page, outsider)


@pytest.mark.parametrize("table", [{"watchers": Game.Watchers.PLAYERS}, {"private": True}])
def test_the_friends_page_hides_a_table_the_viewer_may_not_watch(
    player: User, rival: User, outsider: User, table: dict[str, Any]
) -> None:
    befriend(player, rival)
    game = services.create_game(rival, "midnight-bakery", 3, **table)
    services.join(game, outsider, game.invite)
    services.start(game, rival)
    socket_at(game, rival, "rival!1")
    line = friend_line(friends_page(player), rival)
    assert "online now" in line
    assert f"/games/{game.pk}/" not in line and "at <a" not in line
    # A friend who plays there too sees it.
    befriend(outsider, rival)
    assert f"/games/{game.pk}/" in friend_line(friends_page(outsider), rival)


def test_the_friends_page_lists_requests_to_answer(player: User, rival: User) -> None:
    friendship.ask(rival, player)
    page = friends_page(player)
    section = page.split('id="friend-requests"', 1)[1]
    assert "bob" in section and 'data-friend="accept"' in section


def test_the_friends_page_reads_the_same_queries_for_one_or_three_friends(
    player: User, make_user: Callable[[str], User]
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count() -> int:
        client = client_for(player)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/games/friends/").status_code == 200
        return len(ctx.captured_queries)

    first = make_user("first")
    befriend(player, first)
    socket_at(services.create_game(first, "midnight-bakery", 2), first, "f!1")
    one = count()
    for name in ("second", "third"):
        other = make_user(name)
        befriend(player, other)
        socket_at(services.create_game(other, "cakehalla", 2), other, f"{name}!1")
    assert count() == one


def test_download_my_data_holds_friends_requests_and_blocks(
    player: User, rival: User, outsider: User, make_user: Callable[[str], User]
) -> None:
    befriend(player, rival)
    friendship.ask(outsider, player)
    friendship.block(player, make_user("troll"))
    data = client_for(player).get("/accounts/settings/data.json").json()
    assert data["people"] == {
        "friends": ["bob"],
        "asked_you": ["carol"],
        "you_asked": [],
        "blocked": ["troll"],
    }


def test_your_own_page_links_your_friends_and_a_bots_page_offers_no_buttons(
    player: User,
) -> None:
    own = client_for(player).get(f"/u/{player.username}/").content.decode()
    assert 'href="/games/friends/"' in own and "data-friend=" not in own
    bot = services.bot_account("greedy", set())
    assert "data-friend=" not in client_for(player).get(f"/u/{bot.username}/").content.decode()
    assert "data-friend=" not in Client().get(f"/u/{player.username}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_requests_crossing_make_one_friendship(player: User, rival: User) -> None:
    import threading

    from django.db import connection

    barrier = threading.Barrier(2)
    failed: list[BaseException] = []

    def ask(a: User, b: User) -> None:
        try:
            barrier.wait()
            friendship.ask(a, b)
        except BaseException as error:
            failed.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=ask, args=(player, rival)),
        threading.Thread(target=ask, args=(rival, player)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    assert list(Friendship.objects.values_list("accepted", flat=True)) == [True]


def test_blocking_with_a_table_and_a_tournament_page_open_blocks_and_says_so(
    player: User, rival: User, open_table: Game
) -> None:
    socket_at(open_table, player, "table-tab")
    owner = caps.Owner("s:tournament-tab")
    caps.admit("tournament-tab", owner, user_id=player.pk, place=caps.tournament_place(1))
    page = press(client_for(player), rival, "block")
    assert "You block bob: they cannot invite you" in page.replace("&#x27;", "'")
