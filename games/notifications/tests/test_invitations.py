"""Inviting a friend to your open table: the waiting room's panel, `invited` sent once with the
right ids (the invitation is the friend's notification), the refusals in words, the limit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.events import invited
from games.friends import services as friendship
from games.models import Game
from games.notifications import invitations
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def befriend(a: User, b: User) -> None:
    friendship.ask(a, b)
    friendship.accept(b, a)


@pytest.fixture
def sent() -> Iterator[list[dict[str, Any]]]:
    """Every `invited` signal sent while the test runs."""
    got: list[dict[str, Any]] = []

    def listen(sender: Any, **kwargs: Any) -> None:
        got.append(kwargs)

    invited.connect(listen)
    yield got
    invited.disconnect(listen)


def invite(client: Client, game: Game, friend: User) -> str:
    response = client.post(f"/games/{game.pk}/invite/", {"user": friend.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_the_waiting_room_lists_friends_to_invite(
    open_table: Game, player: User, rival: User, outsider: User
) -> None:
    befriend(player, rival)
    page = client_for(player).get(open_table.get_absolute_url()).content.decode()
    panel = page.split('id="invite-friends"', 1)[1].split("</section>", 1)[0]
    assert "bob" in panel and "carol" not in panel and ">Invite</button>" in panel
    outsiders_page = client_for(outsider).get(open_table.get_absolute_url()).content.decode()
    assert 'id="invite-friends"' not in outsiders_page


def test_an_invitation_sends_invited_once_with_the_right_ids(
    open_table: Game,
    player: User,
    rival: User,
    sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    befriend(player, rival)
    with django_capture_on_commit_callbacks(execute=True):
        html = invite(client_for(player), open_table, rival)
    assert "bob is invited" in html
    # The invitation is bob's notification, stored once the invitation commits: the panel of
    # any page from then on marks him invited.
    page = client_for(player).get(open_table.get_absolute_url()).content.decode()
    assert '<span class="tag accepted">invited</span>' in page and ">Invite</button>" not in page
    assert sent == [{"signal": invited, "game_id": open_table.pk, "by": player.pk, "to": rival.pk}]
    with django_capture_on_commit_callbacks(execute=True):
        again = invite(client_for(player), open_table, rival)
    assert "bob is already invited to this table." in again
    assert len(sent) == 1


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("stranger", "You can invite only your friends, and bob is not one yet."),
        ("outsider", "Only the people at a table can invite friends to it."),
        ("seated", "bob already sits at this table."),
        ("self", "You cannot invite yourself."),
        ("running", "This table has already started."),
    ],
)
def test_a_refused_invitation_says_why_and_sends_nothing(
    open_table: Game,
    player: User,
    rival: User,
    outsider: User,
    sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
    case: str,
    said: str,
) -> None:
    if case != "stranger":
        befriend(player, rival)
        befriend(outsider, rival)
    inviter, friend = player, rival
    if case == "outsider":
        inviter = outsider
    if case in ("seated", "running"):
        services.join(open_table, rival)
    if case == "running":
        services.start(open_table, player)
        friend = outsider
        befriend(player, outsider)
    if case == "self":
        friend = player
    with django_capture_on_commit_callbacks(execute=True):
        html = invite(client_for(inviter), open_table, friend)
    assert said in html.replace("&#x27;", "'")
    assert sent == []


def test_invitations_are_rate_limited(
    player: User,
    make_user: Callable[[str], User],
    sent: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    monkeypatch.setattr(invitations, "INVITES_PER_HOUR", 2)
    game = services.create_game(player, "midnight-bakery", 5)
    others = [make_user(f"pal{i}") for i in range(3)]
    for other in others:
        befriend(player, other)
    with django_capture_on_commit_callbacks(execute=True):
        for other in others[:2]:
            invitations.invite(game, player, other)
        html = invite(client_for(player), game, others[2])
    assert "You sent 2 invitations this hour; try again later." in html
    assert [s["to"] for s in sent] == [others[0].pk, others[1].pk]
