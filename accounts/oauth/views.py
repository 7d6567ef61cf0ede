"""The apps' pages: the consent page an app sends a person to (the toolkit's authorization
view, drawn in the site's style), a person's own apps (register, delete), and revoking an app's
token from Settings, Access tokens, where the person's personal tokens are listed too."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from oauth2_provider.exceptions import FatalClientError
from oauth2_provider.models import Application
from oauth2_provider.views import AuthorizationView
from oauthlib.oauth2.rfc6749 import errors

from accounts.oauth import apps, keys
from accounts.oauth.forms import AppForm
from accounts.oauth.validator import NUL_REFUSED, WORDS
from accounts.views import SignedInRequest, person_form_page


def holds_nul(request: HttpRequest) -> bool:
    """Whether a name or value of the request's query or form holds a NUL byte."""
    fields = [*request.GET.lists(), *request.POST.lists()]
    return any("\x00" in name or any("\x00" in v for v in values) for name, values in fields)


def refuses_nul(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An OAuth2 endpoint that refuses a NUL byte in words before the toolkit reads the request
    (PostgreSQL refuses one in any query: it was a 500)."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if holds_nul(request):
            said = {"error": "invalid_request", "error_description": NUL_REFUSED}
            return JsonResponse(said, status=400)
        return view(request, *args, **kwargs)

    return guarded


def origin_of(uri: str) -> str:
    """The scheme, host and port of an address ("" for none)."""
    parts = urlsplit(uri)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


class Consent(AuthorizationView):  # type: ignore[misc]  # the toolkit is untyped
    """The toolkit's authorization endpoint: the app's request checked (a bad client or an
    unregistered redirect address is told here and never redirected to; any other refusal goes
    back to the app in words), then the consent page: the app's name, what it asks for in the
    reader's words, Allow or Deny."""

    template_name = "accounts/oauth_consent.html"

    def error_response(self, error: Any, application: Any, **kwargs: Any) -> HttpResponse:
        said = error.oauthlib_error
        if not said.description:
            said.description = WORDS.get(said.error, "")
        answer: HttpResponse = super().error_response(error, application, **kwargs)
        return answer

    def form_valid(self, form: Any) -> HttpResponse:
        # The toolkit reads the posted client_id's app with get(): a forged one was a 500.
        if not Application.objects.filter(client_id=form.cleaned_data["client_id"]).exists():
            return self.error_response(FatalClientError(errors.InvalidClientIdError()), None)
        answer: HttpResponse = super().form_valid(form)
        return answer

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        answer: HttpResponse = super().get(request, *args, **kwargs)
        # The form posts here, then goes on to the app: the page's CSP lets the form go there.
        target = origin_of(self.oauth2_data.get("redirect_uri") or "")
        if answer.status_code == 200 and target:
            answer._csp_update = {"form-action": [target]}  # type: ignore[attr-defined]
        return answer


def apps_page(request: SignedInRequest, form: AppForm, status: int = 200) -> HttpResponse:
    """The person's apps, newest first, and the form to register one."""
    ctx = {"form": form, "apps": apps.mine(request.user.pk)}
    return render(request, "accounts/oauth_apps.html", ctx, status=status)


@person_form_page(AppForm, apps_page)
def my_apps(request: SignedInRequest, form: AppForm) -> HttpResponse:
    """List the person's apps; a post registers one."""
    data = form.cleaned_data
    app = apps.register(request.user.pk, data["name"], data["redirect_uris"])
    messages.success(
        request,
        gettext("“%(name)s” is registered: its client_id is %(client_id)s.")
        % {"name": app.name, "client_id": app.client_id},
    )
    return redirect("oauth_apps")


@login_required
@require_POST
def remove_app(request: SignedInRequest, app_id: int) -> HttpResponse:
    """Delete one of the person's apps: every token it holds stops working at once."""
    if apps.remove(request.user.pk, app_id):
        messages.success(request, gettext("The app is deleted, and every token it held with it."))
    else:
        messages.info(request, gettext("There is no such app of yours to delete."))
    return redirect("oauth_apps")


@login_required
@require_POST
def revoke_app_token(request: SignedInRequest, token_id: int) -> HttpResponse:
    """Revoke an app's access to the person: its token stops working at once, and it cannot
    get another without asking again."""
    if keys.revoke(request.user.pk, token_id):
        messages.success(
            request, gettext("The app's access is revoked: its token no longer works.")
        )
    else:
        messages.info(request, gettext("There is no such app access of yours to revoke."))
    return redirect("access_tokens")
