"""Moderators see friendships and blocks in admin, search and filter them, and may delete one;
nobody adds or edits one there, and players cannot open them (nor notifications, whose admin is
tested in games/notifications/tests/test_admin.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import DELETION, LogEntry
from django.test import Client
from django.utils import timezone

from accounts import friends
from accounts.models import Block, Friendship, User
from games import services
from games.events import invited
from games.friends import services as friendship
from games.models import Game
from games.notifications.models import Notification
from tests.conftest import client_for

# backend: admin search and filters are SQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]

Capture = Callable[..., Any]

# Its own tests are in games/notifications/tests/test_admin.py.
NOTIFICATIONS = "/admin/notifications/notification/"
FRIENDSHIPS = "/admin/accounts/friendship/"
BLOCKS = "/admin/accounts/block/"


@pytest.fixture
def mod(moderator: User) -> Client:
    return client_for(moderator)


@pytest.fixture
def social(player: User, rival: User, outsider: User, make_user: Callable[[str], User]) -> None:
    """alice and bob are friends; carol asked alice (no answer yet); alice blocks dave, erin
    blocks alice."""
    friendship.ask(player, rival)
    friendship.accept(rival, player)
    friendship.ask(outsider, player)
    friendship.block(player, make_user("dave"))
    friendship.block(make_user("erin"), player)


def rows_shown(html: str, admin_url: str) -> set[int]:
    """The ids of the rows a changelist links to."""
    return set(row_order(html, admin_url))


def row_order(html: str, admin_url: str) -> list[int]:
    """The ids of the rows a changelist links to, in its order."""
    return list(
        dict.fromkeys(int(pk) for pk in re.findall(rf'href="{admin_url}(\d+)/change/', html))
    )


# --- friendships and blocks -----------------------------------------------------------------


def test_a_moderator_lists_searches_and_filters_friendships(
    mod: Client, social: None, player: User, rival: User, outsider: User
) -> None:
    friends_row = Friendship.objects.get(from_user=player, to_user=rival)
    asked_row = Friendship.objects.get(from_user=outsider, to_user=player)
    page = mod.get(FRIENDSHIPS)
    assert page.status_code == 200
    html = page.content.decode()
    assert rows_shown(html, FRIENDSHIPS) == {friends_row.pk, asked_row.pk}
    assert ">alice</a>" in html and ">bob</a>" in html and ">carol</a>" in html
    assert "accepted" in html and "asked" in html
    for name, expected in [("carol", {asked_row.pk}), ("bob", {friends_row.pk})]:
        found = mod.get(FRIENDSHIPS, {"q": name}).content.decode()
        assert rows_shown(found, FRIENDSHIPS) == expected
    asked = mod.get(FRIENDSHIPS, {"state": "asked"}).content.decode()
    assert rows_shown(asked, FRIENDSHIPS) == {asked_row.pk}
    accepted = mod.get(FRIENDSHIPS, {"state": "accepted"}).content.decode()
    assert rows_shown(accepted, FRIENDSHIPS) == {friends_row.pk}


def test_a_moderator_lists_and_searches_blocks(mod: Client, social: None, player: User) -> None:
    blocks_dave = Block.objects.get(blocker=player)
    erin_blocks = Block.objects.get(blocked=player)
    page = mod.get(BLOCKS)
    assert page.status_code == 200
    html = page.content.decode()
    assert rows_shown(html, BLOCKS) == {blocks_dave.pk, erin_blocks.pk}
    assert ">alice</a>" in html and ">dave</a>" in html and ">erin</a>" in html
    for name, expected in [("dave", {blocks_dave.pk}), ("erin", {erin_blocks.pk})]:
        found = mod.get(BLOCKS, {"q": name}).content.decode()
        assert rows_shown(found, BLOCKS) == expected
    now = timezone.now()
    Block.objects.filter(pk=erin_blocks.pk).update(created_at=now - timedelta(days=30))
    week = {"created_at__gte": (now - timedelta(days=7)).isoformat()}
    recent = mod.get(BLOCKS, week).content.decode()
    assert rows_shown(recent, BLOCKS) == {blocks_dave.pk}


def test_the_person_columns_sort_by_name(mod: Client, social: None, player: User) -> None:
    blocks_dave = Block.objects.get(blocker=player)
    erin_blocks = Block.objects.get(blocked=player)
    # The columns are list_display's second and third (admin's o= counts from 1).
    by_blocker = mod.get(BLOCKS, {"o": "2"}).content.decode()
    assert row_order(by_blocker, BLOCKS) == [blocks_dave.pk, erin_blocks.pk]  # alice, erin
    by_blocked = mod.get(BLOCKS, {"o": "3"}).content.decode()
    assert row_order(by_blocked, BLOCKS) == [erin_blocks.pk, blocks_dave.pk]  # alice, dave


@pytest.mark.parametrize("url", [FRIENDSHIPS, BLOCKS])
def test_friendships_and_blocks_cannot_be_added_or_changed_in_admin(
    mod: Client, social: None, player: User, url: str
) -> None:
    model = Friendship if url == FRIENDSHIPS else Block
    row = model.objects.order_by("pk").first()
    assert row is not None
    assert mod.get(f"{url}add/").status_code == 403
    assert f'href="{url}add/"' not in mod.get(url).content.decode()
    before = list(model.objects.order_by("pk").values())
    fields = {"from_user": player.pk, "to_user": player.pk, "accepted": "on"}
    fields |= {"blocker": player.pk, "blocked": player.pk}
    assert mod.post(f"{url}{row.pk}/change/", fields).status_code == 403
    assert mod.post(f"{url}add/", fields).status_code == 403
    assert list(model.objects.order_by("pk").values()) == before
    page = mod.get(f"{url}{row.pk}/change/").content.decode()
    assert 'name="_save"' not in page and f"{url}{row.pk}/delete/" in page


def test_a_moderator_ends_a_friendship(
    mod: Client, social: None, player: User, rival: User
) -> None:
    row = Friendship.objects.get(from_user=player, to_user=rival)
    assert friends.are_friends(player, rival)
    response = mod.post(f"{FRIENDSHIPS}{row.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not friends.are_friends(player, rival)
    assert Friendship.objects.count() == 1  # carol's request stays
    assert LogEntry.objects.filter(object_id=str(row.pk), action_flag=DELETION).exists()


def test_a_moderator_lifts_a_block(mod: Client, social: None, player: User) -> None:
    dave = User.objects.get(username="dave")
    row = Block.objects.get(blocker=player, blocked=dave)
    response = mod.post(f"{BLOCKS}{row.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not friends.blocks(player, dave)
    assert Block.objects.count() == 1  # erin's stays


# --- the person's page, and who may open any of it ------------------------------------------


def test_a_persons_page_shows_their_friendships_and_blocks_both_ways(
    mod: Client, social: None, player: User
) -> None:
    page = mod.get(f"/admin/accounts/user/{player.pk}/change/").content.decode()
    lowered = page.lower()
    for heading in [
        "friendships asked by this person",
        "friendships asked of this person",
        "blocks by this person",
        "blocks of this person",
    ]:
        assert heading in lowered
    for name in ["bob", "carol", "dave", "erin"]:
        person = User.objects.get(username=name)
        assert f'href="/admin/accounts/user/{person.pk}/change/">{name}</a>' in page
    for row in Friendship.objects.all():
        assert f"{FRIENDSHIPS}{row.pk}/change/" in page
    for block in Block.objects.all():
        assert f"{BLOCKS}{block.pk}/change/" in page


def test_a_player_cannot_open_or_delete_what_a_moderator_sees(
    mod: Client, social: None, player: User, outsider: User
) -> None:
    game = services.create_game(player, "cakehalla", 2)
    invited.send(Game, game_id=game.pk, by=player.pk, to=[outsider.pk])
    client = client_for(player)
    notification = Notification.objects.first()
    friendship = Friendship.objects.first()
    block = Block.objects.first()
    assert notification is not None and friendship is not None and block is not None
    for url, pk in [
        (NOTIFICATIONS, notification.pk),
        (FRIENDSHIPS, friendship.pk),
        (BLOCKS, block.pk),
    ]:
        for page in [url, f"{url}{pk}/change/", f"{url}{pk}/delete/"]:
            assert mod.get(page).status_code == 200
            response = client.get(page)
            assert response.status_code == 302 and "/admin/login/" in response["Location"]
        assert client.post(f"{url}{pk}/delete/", {"post": "yes"}).status_code == 302
    assert Notification.objects.filter(pk=notification.pk).exists()
    assert Friendship.objects.filter(pk=friendship.pk).exists()
    assert Block.objects.filter(pk=block.pk).exists()


def test_a_persons_page_lists_their_newest_blocks_with_a_link_to_all(
    mod: Client, player: User
) -> None:
    from games.admin.people import INLINE_ROWS

    many = INLINE_ROWS + 3
    blockers = User.objects.bulk_create(User(username=f"troll{i:02}") for i in range(many))
    Block.objects.bulk_create(Block(blocker=troll, blocked=player) for troll in blockers)
    page = mod.get(f"/admin/accounts/user/{player.pk}/change/").content.decode()
    every = f"{BLOCKS}?blocked__id__exact={player.pk}"
    assert f"The newest {INLINE_ROWS} of {many}" in page and f'href="{every}"' in page
    listed = mod.get(every)
    assert listed.status_code == 200
    assert len(rows_shown(listed.content.decode(), BLOCKS)) == many
