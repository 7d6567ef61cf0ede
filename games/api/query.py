"""Only the query parameters an operation declares: any other is refused (400, in words).

django-ninja reads the parameters it knows and ignores the rest, so `?knd=cakehalla` answered
every game as if nothing were asked, and a client never learnt its typo (schemathesis ST201:
"a schema-violating request accepted"). Installed on every operation of the API (`install`),
before django-ninja reads its token; a request it refuses goes through the operation's door
first all the same (`door`: the client's and the token's limits counted, as for any request),
so a program asking too fast with garbage is told 429 like any other, and one without a good
token is told 401 as on any operation.

It reads django-ninja's own names for an operation's parameters (`Operation.models`, their
`__ninja_param_source__` and `__ninja_flatten_map__`, a bound `run`'s `__self__`) and for its
door (`Operation.auth_callbacks`, each called as django-ninja calls it): the library
has no public way to forbid them (upstream: vitalik/django-ninja#814, still open; and #702, a
query Schema's `extra="forbid"` ignored because the flatten map drops the extras first). When it
does, this module goes. Its cost is one set difference a request (not measured apart: the token
GETs of bench.api_gets include it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from ninja import NinjaAPI
from ninja.operation import Operation

from games.api.errors import Refused, answer

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


def door(operation: Operation, request: HttpRequest, refusal: HttpResponse) -> HttpResponse:
    """The refusal of a request with an unknown query parameter, after it went through the
    operation's door as any request does (auth.BearerToken counts the client's and the token's
    limits, then looks at the token): the door's own refusal (401, 429) when it has one, which
    wins as it would on a request with no unknown parameter."""
    try:
        for callback in operation.auth_callbacks:
            callback(request)
    except Refused as refused:
        return answer(refused.status, refused.sentence, refused.retry_after)
    return refusal


def known_only(run: Run) -> Run:
    """An operation's `run` (a view decorator of django-ninja: bound to its operation) that
    first refuses a query parameter the operation does not declare (counted at its door)."""
    operation = run.__self__  # type: ignore[attr-defined]  # a bound Operation.run
    known = declared(operation)
    if operation.is_async:

        @functools.wraps(run)
        async def checked_async(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            refusal = unknown_words(request, known)
            if refusal is None:
                return await run(request, *args, **kwargs)
            return await sync_to_async(door)(operation, request, refusal)

        return checked_async

    @functools.wraps(run)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        refusal = unknown_words(request, known)
        return (
            run(request, *args, **kwargs) if refusal is None else door(operation, request, refusal)
        )

    return checked


def install(api: NinjaAPI) -> None:
    """Refuse unknown query parameters on every operation of this API."""
    api.add_decorator(known_only, mode="view")
