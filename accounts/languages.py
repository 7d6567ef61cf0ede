"""The language a person reads: the browser's on a first visit, the menu's choice after (Django's
LocaleMiddleware and set_language, a cookie), and an account's saved choice over both once logged
in, so it follows the person to every browser and writes their mails and pushes too."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import trans_real

if TYPE_CHECKING:
    from accounts.models import User


def supported(code: str | None) -> str:
    """One of settings.LANGUAGES for a code (a browser's "de-AT" is German), else the site's."""
    try:
        return translation.get_supported_language_variant(code or settings.LANGUAGE_CODE)
    except LookupError:
        return settings.LANGUAGE_CODE


def language_of(user: User | None) -> str:
    """The language a person's mails and pushes are written in: their saved choice."""
    return supported(user.language if user is not None else None)


@contextmanager
def in_language_of(user: User | None) -> Iterator[None]:
    """Words made inside are in the person's language (a mail, a push), whoever's request or
    thread makes them; the language before is back afterwards."""
    with translation.override(language_of(user)):
        yield


def language_of_socket(
    user: User | AnonymousUser | None, cookies: Mapping[str, str], accept_language: str
) -> str:
    """The language a socket's pushes are written in, as a page of the same browser is: the
    person's saved choice, else the language cookie (the menu's picker), else the browser's
    Accept-Language (as LocaleMiddleware and AccountLanguageMiddleware read a request)."""
    try:
        saved = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    except (OperationalError, InterfaceError):
        saved = ""
    if saved:
        return supported(saved)
    cookie = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie and cookie in dict(settings.LANGUAGES):
        return cookie
    for code, _ in trans_real.parse_accept_lang_header(accept_language):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def remember_in_browser(response: HttpResponse, user: User) -> None:
    """The person's saved language set as the browser's choice (Django's language cookie)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language_of(user),
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class AccountLanguageMiddleware:
    """A logged-in person's saved language over the browser's and the cookie's.

    After LocaleMiddleware (which read the cookie and Accept-Language) and the authentication
    middleware; it reads the user the page reads anyway.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = saved_language(request)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)


def saved_language(request: HttpRequest) -> str:
    """The logged-in person's saved language ("" for none). With the database away it is the
    browser's: the view then meets the outage itself and answers 503 in words (the outage
    middleware answers a view's failure, not one raised here)."""
    user = getattr(request, "user", None)
    try:
        if user is None or not user.is_authenticated or not user.language:
            return ""
    except (OperationalError, InterfaceError):
        return ""
    return supported(user.language)
