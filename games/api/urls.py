"""The API's addresses, mounted at /api/ (bakery_site/urls.py): django-ninja's own, each view
wrapped so that a method the address does not take is refused in JSON words as well."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver

from games.api.api import api
from games.api.errors import answer

View = Callable[..., HttpResponse]


def methods_in_words(view: View) -> View:
    """The view, its 405 (django-ninja's plain text) said as the API's JSON refusal."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if response.status_code != 405:
            return response
        allowed = response.get("Allow", "")
        refused = answer(405, f"This address takes {allowed or 'other methods'} only.")
        refused["Allow"] = allowed
        return refused

    return wrapped


def wrapped_patterns() -> list[URLPattern | URLResolver]:
    """django-ninja's URL patterns, each view wrapped by methods_in_words."""
    patterns, _, _ = api.urls
    out: list[URLPattern | URLResolver] = []
    for pattern in patterns:
        if isinstance(pattern, URLPattern):
            view = methods_in_words(pattern.callback)
            pattern = URLPattern(pattern.pattern, view, pattern.default_args, pattern.name)
        out.append(pattern)
    return out


urlpatterns = wrapped_patterns()
app_name = "api"
