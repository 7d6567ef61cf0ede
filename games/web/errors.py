"""The site's own 404 page: what was not found, said in the site's words, never Django's."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from games.access import NO_SUCH_TABLE
from games.notifications.views import NO_SUCH_NOTIFICATION

# get_object_or_404 says "No <Model> matches the given query."; the site names the thing.
DJANGO_WORDS = re.compile(r"No (\w+) matches the given query\.")
# The words are English where they are raised (the API answers in English); the page says them in
# the reader's language (not_found_words), their translations marked here with N_.
NO_SUCH_PERSON = N_("Nobody here goes by that name: it may be mistyped, or the account deleted.")
NO_SUCH_GAME = N_("We offer no game by that name: the lobby lists the games you can play.")
NOT_FOUND_WORDS = {
    "Game": NO_SUCH_TABLE,
    "User": NO_SUCH_PERSON,
    "Notification": NO_SUCH_NOTIFICATION,
    "Report": N_("We could not find that report: it may have been dealt with and removed."),
    "Vacation": N_("We could not find that vacation among yours: it may have been called off."),
}
NOTHING_HERE = N_(
    "There is nothing at this address: the table may have been private, or the link mistyped."
)


def not_found_words(exception: Exception | None) -> str:
    """What a 404 says, in the reader's language: the view's own sentence, a thing named in the
    site's words, or that nothing is at this address (a mistyped address, or a 404 that said
    nothing)."""
    said = exception.args[0] if exception is not None and exception.args else ""
    if not isinstance(said, str) or not said:
        return gettext(NOTHING_HERE)  # the URL resolver's own 404 carries a dict of what it tried
    named = DJANGO_WORDS.fullmatch(said)
    if named is not None:
        return gettext(NOT_FOUND_WORDS.get(named.group(1), NOTHING_HERE))
    return gettext(said)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 404 page (settings' handler404)."""
    return render(request, "404.html", {"words": not_found_words(exception)}, status=404)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 403 page (handler403): the refusal's own sentence, in the reader's language (the
    sentences are English where raised, their translations marked with N_)."""
    said = exception.args[0] if exception is not None and exception.args else ""
    words = gettext(said) if isinstance(said, str) and said else ""
    return render(request, "403.html", {"exception": words}, status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A post Django's CSRF check refused (settings.CSRF_FAILURE_VIEW): the site's own 403 page,
    in the reader's language, saying what to do, never Django's technical page."""
    words = gettext(
        "This form is too old, or your browser kept back its cookie. Nothing was changed: go "
        "back, reload the page and try again."
    )
    return render(request, "403.html", {"exception": words}, status=403)
