"""Where a page sends a person next when the client names it (?next=, a posted next): only a
path on this site. Everything that reads a redirect target from a request goes through here."""

from __future__ import annotations

import unicodedata

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def local_path(target: object, default: str) -> str:
    """The target when it is a path on this site ("/games/7/"), else the default.

    Not a URL name ("foo" made redirect() look one up and fail), not another site ("//evil",
    "/\\evil", "https://evil"), and no control or blank characters a browser might drop or a
    header refuse.
    """
    if not isinstance(target, str) or not target.startswith("/"):
        return default
    if target.startswith(("//", "/\\")):
        return default
    if any(unicodedata.category(char)[0] in "CZ" for char in target):
        return default
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=set()):
        return default
    return target


def next_page(request: HttpRequest, default: str) -> str:
    """The page the request asks to go to next (a posted next, else ?next=), when it is a path on
    this site; else the default."""
    return local_path(request.POST.get("next", request.GET.get("next")), default)
