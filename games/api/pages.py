"""The settings page's way to a bot account (Settings, Access tokens): a plain form, for a person
who would rather click than call `POST /api/bot/account/upgrade`. Mounted beside the tokens at
/accounts/settings/bot/ (bakery_site/urls.py): the check needs the games, which accounts/ does
not import."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.views import SignedInRequest
from games.api import bots
from games.api.errors import Refused

UNSURE = gettext_lazy(
    "Tick the box to say you understand: a bot account cannot become a person's again."
)
DONE = gettext_lazy(
    "This is now a bot account: its program plays through the API only, marked as a bot."
)


@login_required
@require_POST
def become_bot(request: SignedInRequest) -> HttpResponse:
    """Upgrade the signed-in account to a bot account, for good, when it may be one; the tokens
    page says what happened."""
    if not request.POST.get("sure"):
        messages.error(request, UNSURE)
        return redirect("access_tokens")
    try:
        bots.upgrade(request.user)
    except Refused as refused:
        messages.error(request, refused.sentence)
    else:
        messages.success(request, DONE)
    return redirect("access_tokens")
