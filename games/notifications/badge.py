"""The menu's inbox link with its unread badge: counted for a page as it renders (menu, a
context processor), and sent anew to a person's open sockets when their notifications change
(badges_changed; each socket renders badge_html)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.models import User, signed_in
from games import events
from games.notifications.models import Notification

MENU_LINK = "notifications/_menu_link.html"


def unread_count(user: User) -> int:
    """How many of the person's notifications are unread."""
    return Notification.objects.filter(recipient=user, read_at=None).count()


def badges_changed(user_ids: Iterable[int]) -> None:
    """Tell these people's open sockets (at any table) that their unread count may have moved:
    each sends its page the menu's inbox link anew (games/live/consumer.py)."""
    events.inbox_changed.tell(user_ids)


def badge_html(user: User | AnonymousUser) -> str:
    """The inbox link of the menu for this person (the page swaps it in by its id); "" for
    someone signed out."""
    if not signed_in(user):
        return ""
    return render_to_string(MENU_LINK, {"inbox_unread": unread_count(user)})


def menu(request: HttpRequest) -> dict[str, object]:
    """The menu's badge (the unread count, counted only where a page shows it: one query) and
    the key a page subscribes to Web Push with."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    count: Callable[[], int] = lambda: unread_count(user)  # noqa: E731
    return {
        "inbox_unread": count,
        "push_key": settings.VAPID_PUBLIC_KEY,
        "badge_poll": settings.BADGE_POLL_SECONDS,  # a table page sets 0: its socket pushes it
    }
