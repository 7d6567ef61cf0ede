"""Every refusal the API makes: a JSON `{"error": "<a sentence>"}` with its status, whatever
refused (a token, a limit, a service, the body's shape, an unknown id)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from ninja import NinjaAPI, Schema
from ninja.errors import HttpError, ValidationError

from games import services
from games.engines import IllegalAction

E = TypeVar("E", bound=Exception)


class Error(Schema):
    """A refusal: a sentence a person can read."""

    error: str


class Refused(Exception):
    """A request the API turns down, with the status and the sentence it answers."""

    def __init__(self, status: int, sentence: str, retry_after: int | None = None) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence
        self.retry_after = retry_after


def answer(status: int, sentence: str, retry_after: int | None = None) -> HttpResponse:
    """The JSON refusal."""
    response = JsonResponse({"error": sentence}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def field_words(errors: list[dict[str, Any]]) -> str:
    """A sentence naming the first field the request got wrong, as pydantic found it."""
    first = errors[0] if errors else {}
    where = [str(part) for part in first.get("loc", ()) if part not in ("body", "payload")]
    if first.get("type") == "json_invalid" or not where:
        return gettext("The request body is not the JSON this operation takes.")
    if first.get("type") == "missing":
        return gettext("The field “%(field)s” is missing.") % {"field": ".".join(where)}
    said = str(first.get("msg", "is not valid")).rstrip(".")
    # pydantic's own words (English) after the field's name.
    return gettext("The field “%(field)s” is wrong: %(said)s.") % {
        "field": ".".join(where),
        "said": f"{said[0].lower()}{said[1:]}",
    }


def on(api: NinjaAPI, kind: type[E], words: Callable[[E], HttpResponse]) -> None:
    """Answer every `kind` of exception the API meets with `words` of it."""

    def handler(request: HttpRequest, exc: E | type[E]) -> HttpResponse:
        assert isinstance(exc, kind)
        return words(exc)

    api.add_exception_handler(kind, handler)


def service_words(exc: services.ServiceError) -> HttpResponse:
    """A service's refusal as the page would say it; the chat's too-fast waits its window."""
    wait = int(services.chat.RATE_WINDOW.total_seconds()) if exc.status == 429 else None
    return answer(exc.status, str(exc), wait)


def http_words(exc: HttpError) -> HttpResponse:
    """django-ninja's own refusals, in the API's words."""
    if exc.status_code == 401:
        return answer(401, gettext("This needs a token: send Authorization: Bearer <token>."))
    if exc.status_code == 400:
        return answer(400, gettext("The request body is not the JSON this operation takes."))
    said = str(exc)
    return answer(exc.status_code, said if said.endswith(".") else f"{said}.")


def missing_words(exc: Http404) -> HttpResponse:
    """An unknown id, in the page's words when it has them."""
    said = str(exc)
    return answer(404, said if said.endswith(".") else gettext("There is no such thing here."))


def install(api: NinjaAPI) -> None:
    """Make every refusal of this API a sentence in JSON."""
    on(api, Refused, lambda exc: answer(exc.status, exc.sentence, exc.retry_after))
    on(api, services.ServiceError, service_words)
    on(api, IllegalAction, lambda exc: answer(400, str(exc)))
    on(api, ValidationError, lambda exc: answer(400, field_words(exc.errors)))
    on(api, HttpError, http_words)
    on(api, Http404, missing_words)
    on(
        api,
        PermissionDenied,
        lambda exc: answer(403, str(exc) or gettext("This is not yours to see.")),
    )
    on(api, RequestDataTooBig, lambda exc: answer(413, gettext("The request body is too large.")))
