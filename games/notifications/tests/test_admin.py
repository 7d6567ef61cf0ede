"""Moderators see notifications in admin, search and filter them, and may delete one (the
person's badge is told); nobody adds or edits one there."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.admin.models import DELETION, LogEntry
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services as game_services
from games.events import invited
from games.friends import services as friendship
from games.models import Game
from games.notifications import services
from games.notifications.models import Notification
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]

NOTIFICATIONS = "/admin/notifications/notification/"


@pytest.fixture
def mod(moderator: User) -> Client:
    return client_for(moderator)


@pytest.fixture
def told(
    player: User, rival: User, outsider: User, django_capture_on_commit_callbacks: Capture
) -> Game:
    """bob is told alice asks to be his friend (read), carol that alice invites her (unread)."""
    with django_capture_on_commit_callbacks(execute=True):
        friendship.ask(player, rival)
    Notification.objects.filter(recipient=rival).update(read_at=timezone.now())
    game = game_services.create_game(player, "cakehalla", 2)
    invited.send(Game, game_id=game.pk, by=player.pk, to=[outsider.pk])
    return game


def rows_shown(html: str, admin_url: str) -> set[int]:
    """The ids of the rows a changelist links to."""
    return {int(pk) for pk in re.findall(rf'href="{admin_url}(\d+)/change/', html)}


def test_a_moderator_lists_searches_and_filters_notifications(
    mod: Client, told: Game, rival: User, outsider: User
) -> None:
    asked = Notification.objects.get(recipient=rival)
    invite = Notification.objects.get(recipient=outsider)
    page = mod.get(NOTIFICATIONS)
    assert page.status_code == 200
    html = page.content.decode()
    assert rows_shown(html, NOTIFICATIONS) == {asked.pk, invite.pk}
    assert ">bob</a>" in html and ">carol</a>" in html
    assert "alice asks to be your friend." in html and str(told) in html
    assert "created_at__year=" in html  # the date hierarchy
    by_name = mod.get(NOTIFICATIONS, {"q": "carol"}).content.decode()
    assert rows_shown(by_name, NOTIFICATIONS) == {invite.pk}
    friend = mod.get(NOTIFICATIONS, {"kind__exact": "friend"}).content.decode()
    assert rows_shown(friend, NOTIFICATIONS) == {asked.pk}
    unread = mod.get(NOTIFICATIONS, {"read": "no"}).content.decode()
    assert rows_shown(unread, NOTIFICATIONS) == {invite.pk}
    read = mod.get(NOTIFICATIONS, {"read": "yes"}).content.decode()
    assert rows_shown(read, NOTIFICATIONS) == {asked.pk}


def test_a_notification_cannot_be_added_or_changed_in_admin(
    mod: Client, told: Game, outsider: User
) -> None:
    invite = Notification.objects.get(recipient=outsider)
    assert mod.get(f"{NOTIFICATIONS}add/").status_code == 403
    assert f'href="{NOTIFICATIONS}add/"' not in mod.get(NOTIFICATIONS).content.decode()
    response = mod.post(
        f"{NOTIFICATIONS}{invite.pk}/change/", {"text": "a forged notice", "kind": "friend"}
    )
    assert response.status_code == 403
    invite.refresh_from_db()
    assert invite.text != "a forged notice" and invite.kind == "invite"
    page = mod.get(f"{NOTIFICATIONS}{invite.pk}/change/").content.decode()
    assert 'name="text"' not in page and 'name="_save"' not in page
    assert f"{NOTIFICATIONS}{invite.pk}/delete/" in page


def test_a_moderator_deletes_a_notification_and_its_persons_badge_is_told(
    mod: Client,
    told: Game,
    outsider: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    invite = Notification.objects.get(recipient=outsider)
    badges: list[set[int]] = []
    monkeypatch.setattr(services, "badges_changed", lambda ids: badges.append(set(ids)))
    with django_capture_on_commit_callbacks(execute=True):
        response = mod.post(f"{NOTIFICATIONS}{invite.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Notification.objects.filter(pk=invite.pk).exists()
    assert Notification.objects.count() == 1  # bob's stays
    assert badges == [{outsider.pk}]
    assert LogEntry.objects.filter(object_id=str(invite.pk), action_flag=DELETION).exists()


def test_a_moderator_deletes_notifications_from_the_list(
    mod: Client,
    told: Game,
    rival: User,
    outsider: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    every = list(Notification.objects.values_list("pk", flat=True))
    badges: list[set[int]] = []
    monkeypatch.setattr(services, "badges_changed", lambda ids: badges.append(set(ids)))
    with django_capture_on_commit_callbacks(execute=True):
        response = mod.post(
            NOTIFICATIONS, {"action": "delete_selected", "_selected_action": every, "post": "yes"}
        )
    assert response.status_code == 302
    assert not Notification.objects.exists()
    assert badges == [{rival.pk, outsider.pk}]
