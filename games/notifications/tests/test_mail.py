"""Issue 32, point 3: notifications mailed to a verified address that opted in, several in one
mail, each kind with a one-click unsubscribe link that works without logging in."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from accounts import emails
from accounts.models import User
from games import services
from games.events import invited
from games.models import Game
from games.notifications import services as notifications
from games.notifications.mail import sweep_mail
from games.notifications.models import Notification
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

LATER = timezone.now() + timedelta(hours=1)


@pytest.fixture(autouse=True)
def _locmem(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "http://testserver"


def opted_in(user: User, **kinds: bool) -> User:
    user.email, user.email_verified = f"{user.username}@example.com", True
    user.mail_invite = kinds.get("invite", True)
    user.mail_turn = kinds.get("turn", True)
    user.save()
    return user


def invite(host: User, people: list[User], tables: int = 1) -> list[Game]:
    games = []
    for _ in range(tables):
        game = services.create_game(host, "cakehalla", 2)
        invited.send(Game, game_id=game.pk, by=host.pk, to=[p.pk for p in people])
        games.append(game)
    return games


def links(body: str) -> list[str]:
    return re.findall(r"http://testserver(/\S+)", body)


def test_three_notifications_go_in_one_mail(player: User, rival: User) -> None:
    opted_in(rival)
    games = invite(player, [rival], tables=3)
    assert sweep_mail(LATER) == 1
    (message,) = mail.outbox
    assert message.to == ["bob@example.com"]
    assert message.subject == "Bakehouse: 3 things at your tables"
    for game in games:
        assert f"alice invites you to {game}." in message.body
        assert f"http://testserver/games/{game.pk}/" in message.body
    assert sweep_mail(LATER) == 0  # each is mailed once
    assert len(mail.outbox) == 1


def test_nothing_is_mailed_before_it_waited(player: User, rival: User) -> None:
    opted_in(rival)
    invite(player, [rival])
    assert sweep_mail(timezone.now()) == 0
    assert mail.outbox == []


def test_a_read_notification_is_not_mailed(player: User, rival: User) -> None:
    opted_in(rival)
    invite(player, [rival])
    notifications.mark_all_read(rival)
    assert sweep_mail(LATER) == 0


def test_unverified_or_opted_out_people_get_no_mail(
    player: User, rival: User, outsider: User
) -> None:
    opted_in(rival)
    rival.email_verified = False
    rival.save()
    opted_in(outsider, invite=False)
    invite(player, [rival, outsider])
    assert sweep_mail(LATER) == 0
    assert mail.outbox == []
    assert Notification.objects.count() == 2  # the inbox shows them all the same


def test_the_unsubscribe_link_stops_that_kind_of_mail(player: User, rival: User) -> None:
    opted_in(rival)
    invite(player, [rival])
    sweep_mail(LATER)
    (message,) = mail.outbox
    unsubscribe = [link for link in links(str(message.body)) if "/unsubscribe/" in link]
    assert len(unsubscribe) == 1
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<http://testserver/accounts/email/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    stranger = Client(enforce_csrf_checks=True)  # not logged in, as from a mail reader
    page = stranger.get(unsubscribe[0])
    assert page.status_code == 200 and "Stop these mails?" in page.content.decode()
    rival.refresh_from_db()
    assert rival.mail_invite  # a GET (a mail scanner's visit) changes nothing
    done = stranger.post(unsubscribe[0])
    assert done.status_code == 200 and "No more of these mails" in done.content.decode()
    rival.refresh_from_db()
    assert not rival.mail_invite and rival.mail_turn
    invite(player, [rival])
    assert sweep_mail(LATER) == 0
    assert len(mail.outbox) == 1


def test_the_list_unsubscribe_header_posts_in_one_click(player: User, rival: User) -> None:
    opted_in(rival)
    invite(player, [rival])
    sweep_mail(LATER)
    header = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = header.removeprefix("http://testserver")
    answer = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    rival.refresh_from_db()
    assert not rival.mail_invite


def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing(rival: User) -> None:
    opted_in(rival)
    answer = Client().post("/accounts/email/unsubscribe/not-a-token/")
    assert answer.status_code == 400
    assert "This link is not valid" in answer.content.decode()
    rival.refresh_from_db()
    assert rival.mail_invite


def test_settings_choose_the_mails(rival: User) -> None:
    client = client_for(rival)
    page = client.get("/accounts/settings/").content.decode()
    assert "Mail me when it is my move at a turn-based table" in page
    client.post("/accounts/settings/", {"mail_turn": "on", "mail_ended": "on"})
    rival.refresh_from_db()
    assert (rival.mail_turn, rival.mail_invite, rival.mail_rematch, rival.mail_ended) == (
        True,
        False,
        False,
        True,
    )


def unsubscribe_path(message: mail.EmailMessage) -> str:
    """The path of the mail's link that stops every kind it carries (its List-Unsubscribe)."""
    return message.extra_headers["List-Unsubscribe"].strip("<>").removeprefix("http://testserver")


def test_the_unsubscribe_pages_show_no_address(player: User, rival: User) -> None:
    opted_in(rival)
    invite(player, [rival])
    sweep_mail(LATER)
    path = unsubscribe_path(mail.outbox[0])
    holder = Client()  # whoever holds the link, say from a forwarded mail
    for page in (holder.get(path), holder.post(path)):
        assert page.status_code == 200
        text = page.content.decode()
        assert "bob@example.com" not in text and "@" not in text.split("<main", 1)[1]
        assert "mail you about invitations to tables" in text


def test_an_unsubscribe_link_lapses_after_sixty_days(
    player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    opted_in(rival)
    for days, table in ((59, 1), (61, 2)):
        mailed_at = int(time.time()) - days * 24 * 3600
        with monkeypatch.context() as then:
            stamp = signing.b62_encode(mailed_at)
            then.setattr(signing.TimestampSigner, "timestamp", lambda self, s=stamp: s)
            invite(player, [rival])
            sweep_mail(LATER)
        assert len(mail.outbox) == table
    fresh_enough, too_old = (unsubscribe_path(message) for message in mail.outbox)
    refused = Client().post(too_old)
    assert refused.status_code == 400
    assert "This link has expired" in refused.content.decode()
    assert "Settings" in refused.content.decode()
    rival.refresh_from_db()
    assert rival.mail_invite
    assert Client().post(fresh_enough).status_code == 200
    rival.refresh_from_db()
    assert not rival.mail_invite


def test_an_unsubscribe_link_for_a_replaced_address_lapses(player: User, rival: User) -> None:
    opted_in(rival)
    invite(player, [rival])
    sweep_mail(LATER)
    path = unsubscribe_path(mail.outbox[0])
    rival.email = "bob@new.example"
    rival.save()
    refused = Client().post(path)
    assert refused.status_code == 400
    assert "an address the account no longer has" in refused.content.decode()
    rival.refresh_from_db()
    assert rival.mail_invite


def test_an_unsubscribe_link_from_before_links_named_their_address_is_refused_in_words(
    rival: User,
) -> None:
    opted_in(rival)
    # What the links in mails sent before this change carry: the account and the kinds only.
    old = signing.dumps({"user": rival.pk, "kinds": ["invite"]}, salt=emails.UNSUBSCRIBE_SALT)
    refused = Client().post(f"/accounts/email/unsubscribe/{old}/")
    assert refused.status_code == 400
    assert "older mail" in refused.content.decode() and "Settings" in refused.content.decode()
    rival.refresh_from_db()
    assert rival.mail_invite
