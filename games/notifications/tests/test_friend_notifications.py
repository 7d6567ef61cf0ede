"""Friend requests notify: the person asked finds it in the inbox (and on the badge), the asker
learns of the yes; nobody is told of their own doing, a blocked pair never; it is mailed to those
who opted in, with its own unsubscribe link, and survives the asker's deleted account."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services
from games.friends import services as friendship
from games.notifications.mail import sweep_mail
from games.notifications.models import Notification
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture(autouse=True)
def _fresh_limits() -> Iterator[None]:
    """The request limits count in the cache: each test starts with none."""
    cache.clear()
    yield
    cache.clear()


def rows(user: User) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind="friend"))


def badge(html: str) -> int | None:
    found = re.search(r'id="inbox-badge"[^>]*>(\d+)<', html)
    return int(found.group(1)) if found else None


def test_a_friend_request_reaches_the_inbox_and_the_badge(
    player: User, rival: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    (row,) = rows(rival)
    assert row.text == "alice asks to be your friend."
    assert row.url == "/games/friends/" and row.game is None
    assert rows(player) == []
    client = client_for(rival)
    assert badge(client.get("/").content.decode()) == 1
    inbox = client.get("/games/inbox/")
    assert inbox.status_code == 200 and "alice asks to be your friend." in inbox.content.decode()
    opened = client.get(f"/games/inbox/{row.pk}/")
    assert opened.status_code == 302 and opened["Location"] == "/games/friends/"


def test_an_accepted_request_tells_the_asker(
    player: User, rival: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    with django_capture_on_commit_callbacks(execute=True):
        friendship.accept(rival, player)
    (row,) = rows(player)
    assert row.text == "bob accepted your friend request."
    assert len(rows(rival)) == 1  # the request only: not told of their own yes


def test_asking_back_accepts_and_tells_the_first_asker(
    player: User, rival: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    with django_capture_on_commit_callbacks(execute=True):
        assert friendship.ask(rival, player)
    assert [r.text for r in rows(player)] == ["bob accepted your friend request."]


def test_a_request_asked_again_after_a_no_is_told_again(
    player: User, rival: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    friendship.decline(rival, player)
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    assert len(rows(rival)) == 2


def test_a_blocked_pair_is_never_told(
    player: User, rival: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        friendship.ask(player, rival)
        friendship.block(rival, player)  # the block lands before the request is told
    assert callbacks
    assert rows(rival) == [] and rows(player) == []


def test_a_refused_request_tells_nobody(
    player: User, rival: User, django_capture_on_commit_callbacks: Capture
) -> None:
    friendship.block(rival, player)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(friendship.FriendRefused):
        friendship.ask(player, rival)
    assert Notification.objects.count() == 0


def test_a_friend_request_is_mailed_with_its_own_unsubscribe_link(
    player: User, rival: User, settings: Any, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "http://testserver"
    rival.email, rival.email_verified, rival.mail_friend = "bob@example.com", True, True
    rival.mail_invite = True
    rival.save()
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    assert sweep_mail(timezone.now() + timedelta(hours=1)) == 1
    (message,) = mail.outbox
    assert message.subject == "Bakehouse: alice asks to be your friend."
    assert "http://testserver/games/friends/" in str(message.body)
    (link,) = re.findall(r"friend requests: http://testserver(/\S+)", str(message.body))
    Client().post(link)
    rival.refresh_from_db()
    assert not rival.mail_friend and rival.mail_invite


def test_settings_offer_the_friend_request_mail(rival: User) -> None:
    client = client_for(rival)
    assert (
        "Mail me when someone asks to be my friend or says yes"
        in client.get("/accounts/settings/").content.decode()
    )
    client.post("/accounts/settings/", {"mail_friend": "on"})
    rival.refresh_from_db()
    assert rival.mail_friend and not rival.mail_turn


def test_the_askers_deleted_account_leaves_a_renamed_request(
    player: User, rival: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    services.delete_account(player, "a-long-baking-secret")
    (row,) = rows(rival)
    assert row.text == f"a deleted baker #{player.pk} asks to be your friend."
    assert client_for(rival).get("/games/inbox/").status_code == 200


def test_a_block_takes_back_what_the_pair_was_told(
    player: User, rival: User, outsider: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
        friendship.ask(outsider, rival)
    assert len(rows(rival)) == 2
    with django_capture_on_commit_callbacks(execute=True):
        friendship.block(rival, player)
    assert [r.text for r in rows(rival)] == ["carol asks to be your friend."]
    assert badge(client_for(rival).get("/").content.decode()) == 1
