"""The inbox's pages: a person's notifications, read and unread, the menu's badge for a page
without a table socket, and a browser's push subscription."""

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.redirects import local_path
from games.access import AuthedRequest
from games.notifications import push, services
from games.notifications.badge import MENU_LINK, unread_count
from games.services import ServiceError

NO_SUCH_NOTIFICATION = N_("We could not find that notification among yours: it may be gone.")

SHOWN = 50


@require_GET
def badge(request: HttpRequest) -> HttpResponse:
    """The menu's inbox link with the unread count now, for a page without a table socket (it
    asks again every BADGE_POLL_SECONDS). Someone logged out meanwhile gets the bare link, which
    asks no more (a redirect to the login page would be swapped into the menu)."""
    user = request.user
    context = {"inbox_unread": 0, "badge_poll": 0}
    if isinstance(user, User) and user.is_authenticated:
        context = {
            "inbox_unread": unread_count(user),
            "badge_poll": settings.BADGE_POLL_SECONDS,
        }
    return render(request, MENU_LINK, context)


@login_required
@require_GET
def inbox(request: AuthedRequest) -> HttpResponse:
    """The person's latest notifications, newest first, the unread ones marked."""
    rows = request.user.notifications.select_related("game")[:SHOWN]
    context: dict[str, Any] = {"notifications": rows}
    return render(request, "notifications/inbox.html", context)


@login_required
@require_GET
def open_notification(request: AuthedRequest, notification_id: int) -> HttpResponse:
    """Follow a notification to its table: it is read from then on."""
    found = services.mark_read(request.user, notification_id)
    if found is None:
        raise Http404(NO_SUCH_NOTIFICATION)
    return HttpResponseRedirect(local_path(found.url, reverse("games:inbox")))


@login_required
@require_POST
def mark_all_read(request: AuthedRequest) -> HttpResponse:
    """Mark every notification read."""
    count = services.mark_all_read(request.user)
    said = gettext("Everything is marked read.") if count else gettext("Nothing was unread.")
    messages.success(request, said)
    return redirect("games:inbox")


def subscription(request: HttpRequest) -> dict[str, Any]:
    """The JSON a page posts (its PushSubscription's toJSON()), or ValueError."""
    data = json.loads(request.body)
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, dict):
        raise ValueError("no keys")
    fields = {
        "endpoint": data.get("endpoint"),
        "p256dh": keys.get("p256dh"),
        "auth": keys.get("auth"),
    }
    if not all(isinstance(value, str) for value in fields.values()):
        raise ValueError("not text")
    return fields


@login_required
@require_POST
def push_subscribe(request: AuthedRequest) -> HttpResponse:
    """Keep this browser's push subscription (posted as JSON by static/js/push.js)."""
    try:
        fields = subscription(request)
        push.subscribe(request.user, **fields, session_key=request.session.session_key)
    except ValueError:
        return JsonResponse({"error": gettext(push.NOT_A_SUBSCRIPTION)}, status=400)
    except ServiceError as refused:
        return JsonResponse({"error": str(refused)}, status=refused.status)
    return JsonResponse({"subscribed": True})


@login_required
@require_POST
def push_unsubscribe(request: AuthedRequest) -> HttpResponse:
    """Forget this browser's push subscription."""
    try:
        data = json.loads(request.body)
    except ValueError:
        data = None
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if not isinstance(endpoint, str):
        return JsonResponse({"error": gettext(push.NOT_A_SUBSCRIPTION)}, status=400)
    push.unsubscribe_browser(request.user, endpoint)
    return JsonResponse({"subscribed": False})
