"""The menu's inbox badge on pages without a table socket: the page asks for it every
BADGE_POLL_SECONDS (htmx), so a notification shows on the lobby without a reload. A table page's
socket pushes it instead (test_badge_live.py), so it does not ask."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.notifications import services as notifications
from games.notifications.models import Notification
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

POLLING = re.compile(
    r'<a id="inbox-link"[^>]*hx-get="/games/inbox/badge/"[^>]*hx-trigger="every 60s"'
)


def test_the_lobby_asks_for_the_badge_and_a_table_page_does_not(player: User) -> None:
    client = client_for(player)
    assert POLLING.search(client.get("/").content.decode())
    game = services.create_game(player, "midnight-bakery", 2)
    table = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="inbox-link"' in table
    assert "/games/inbox/badge/" not in table


def test_the_badge_says_what_is_unread_now_and_keeps_asking(player: User, rival: User) -> None:
    client = client_for(player)
    answer = client.get("/games/inbox/badge/", headers={"HX-Request": "true"}).content.decode()
    assert 'id="inbox-badge"' not in answer and POLLING.search(answer)
    game = services.create_game(rival, "midnight-bakery", 2)
    notifications.tell_invited(game, rival.pk, [player.pk])
    assert Notification.objects.filter(recipient=player, read_at__isnull=True).count() == 1
    answer = client.get("/games/inbox/badge/", headers={"HX-Request": "true"}).content.decode()
    assert re.search(r'id="inbox-badge"[^>]*>1<', answer)
    assert POLLING.search(answer)


def test_someone_logged_out_gets_the_bare_link_and_no_more_asking() -> None:
    answer = Client().get("/games/inbox/badge/", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    body = answer.content.decode()
    assert 'id="inbox-link"' in body and "hx-get" not in body and "inbox-badge" not in body
