"""The inbox: a person's notifications, read and unread, and the menu's unread badge."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from games.access import AuthedRequest
from games.services import notices

SHOWN = 50


def unread(request: HttpRequest) -> dict[str, Callable[[], int]]:
    """The menu's badge: the unread count, counted only where a page shows it (one query)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"inbox_unread": lambda: notices.unread_count(user)}


@login_required
@require_GET
def inbox(request: AuthedRequest) -> HttpResponse:
    """The person's latest notifications, newest first, the unread ones marked."""
    rows = request.user.notifications.select_related("game")[:SHOWN]
    context: dict[str, Any] = {"notifications": rows}
    return render(request, "games/inbox/inbox.html", context)


@login_required
@require_GET
def open_notification(request: AuthedRequest, notification_id: int) -> HttpResponse:
    """Follow a notification to its table: it is read from then on."""
    found = notices.mark_read(request.user, notification_id)
    if found is None:
        raise Http404("No such notification.")
    allowed = url_has_allowed_host_and_scheme(found.url, allowed_hosts={request.get_host()})
    return redirect(found.url if allowed else "games:inbox")


@login_required
@require_POST
def mark_all_read(request: AuthedRequest) -> HttpResponse:
    """Mark every notification read."""
    count = notices.mark_all_read(request.user)
    messages.success(request, "Everything is marked read." if count else "Nothing was unread.")
    return redirect("games:inbox")
