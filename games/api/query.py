"""Only the query parameters an operation declares: any other is refused (400, in words).

django-ninja reads the parameters it knows and ignores the rest, so `?knd=cakehalla` answered
every game as if nothing were asked, and a client never learnt its typo (schemathesis ST201:
"a schema-violating request accepted"). Installed on every operation of the API (`install`),
before its token is read: a request the operation cannot take is refused, whoever sends it.

It reads django-ninja's own names for an operation's parameters (`Operation.models`, their
`__ninja_param_source__` and `__ninja_flatten_map__`, a bound `run`'s `__self__`): the library
has no public way to forbid them (upstream: vitalik/django-ninja#814, still open; and #702, a
query Schema's `extra="forbid"` ignored because the flatten map drops the extras first). When it
does, this module goes. Its cost is one set difference a request (not measured apart: the token
GETs of bench.api_gets include it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from ninja import NinjaAPI
from ninja.operation import Operation

from games.api.errors import answer

Run = Callable[..., Any]


def declared(operation: Operation) -> frozenset[str]:
    """The names of the query parameters this operation takes."""
    return frozenset(
        name
        for model in operation.models
        if model.__ninja_param_source__ == "query"
        for name in getattr(model, "__ninja_flatten_map__", {})
    )


def unknown_words(request: HttpRequest, known: frozenset[str]) -> HttpResponse | None:
    """The refusal of a request with a query parameter the operation does not take, naming
    the first of them (None: every one is known)."""
    unknown = sorted(set(request.GET) - known)
    if not unknown:
        return None
    if known:
        said = gettext(
            "This operation takes no query parameter “%(name)s”: it takes %(known)s."
        ) % {"name": unknown[0], "known": ", ".join(f"“{name}”" for name in sorted(known))}
    else:
        said = gettext("This operation takes no query parameter “%(name)s”: it takes none.") % {
            "name": unknown[0]
        }
    return answer(400, said)


def known_only(run: Run) -> Run:
    """An operation's `run` (a view decorator of django-ninja: bound to its operation) that
    first refuses a query parameter the operation does not declare."""
    operation = run.__self__  # type: ignore[attr-defined]  # a bound Operation.run
    known = declared(operation)
    if operation.is_async:

        @functools.wraps(run)
        async def checked_async(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            return unknown_words(request, known) or await run(request, *args, **kwargs)

        return checked_async

    @functools.wraps(run)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        return unknown_words(request, known) or run(request, *args, **kwargs)

    return checked


def install(api: NinjaAPI) -> None:
    """Refuse unknown query parameters on every operation of this API."""
    api.add_decorator(known_only, mode="view")
