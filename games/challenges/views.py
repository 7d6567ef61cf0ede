"""A challenge on the site: its page shows it to its two people, with a form for each answer
(accept or decline for the challenged, cancel for the challenger) that works without scripts.
The challenged reaches it from their inbox (the challenge's notification leads here)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import catalog
from games.access import AuthedRequest
from games.challenges import services
from games.challenges.models import Challenge
from games.services import ServiceError

ANSWERS: dict[str, Callable[[int, User], Challenge]] = {
    "accept": services.accept,
    "decline": services.decline,
    "cancel": services.cancel,
}
SAID = {
    "accept": gettext_noop("You accepted: your table is dealt."),
    "decline": gettext_noop("You declined the challenge."),
    "cancel": gettext_noop("You cancelled your challenge."),
}


@login_required
@require_GET
def challenge_page(request: AuthedRequest, challenge_id: int) -> HttpResponse:
    """The challenge, to its two people only (anyone else finds nothing here)."""
    found = services.mine(request.user).filter(pk=challenge_id).first()
    if found is None:
        raise Http404(gettext("There is no such challenge."))
    ctx = {
        "challenge": found,
        "words": services.words(found, catalog.get(found.kind)),
        "challenged": found.challenged_id == request.user.pk,
        "open": found.status == Challenge.Status.OPEN and not found.lapsed(),
        "expired": found.lapsed(),
    }
    return render(request, "challenges/challenge.html", ctx)


@login_required
@require_POST
def answer(request: AuthedRequest, challenge_id: int, verb: str) -> HttpResponse:
    """Accept, decline or cancel: to the table once accepted, else back to the challenge with
    the outcome (or the refusal) in words."""
    act = ANSWERS.get(verb)
    if act is None:
        raise Http404(gettext("There is no such answer to a challenge."))
    try:
        found = act(challenge_id, request.user)
    except services.Unknown as error:
        raise Http404(str(error)) from error
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("games:challenge", challenge_id)
    messages.success(request, gettext(SAID[verb]))
    if found.game is not None:
        return redirect(found.game)
    return redirect("games:challenge", challenge_id)
