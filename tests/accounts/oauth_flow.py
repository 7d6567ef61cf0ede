"""An app's side of OAuth2 with PKCE, spoken to the site through Django's test client: register
an app, send a person to the consent page, allow, trade the code for tokens (accounts/oauth/)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.test import Client
from oauth2_provider.models import Application

from accounts.models import User
from accounts.oauth import apps

CALLBACK = "https://app.example/callback"


def pkce() -> tuple[str, str]:
    """A new code verifier and its S256 challenge (RFC 7636)."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def an_app(owner: User, uris: tuple[str, ...] = (CALLBACK,)) -> Application:
    """A public app registered by this person, as the apps page registers one."""
    return apps.register(owner.pk, "Crumb Counter", list(uris))


def asked(
    app: Application, challenge: str | None, scopes: str = "account:read", **more: str
) -> dict[str, str]:
    """An authorization request's query: the code flow, with this challenge (S256)."""
    query = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": CALLBACK,
        "scope": scopes,
        "state": "st4te",
    }
    if challenge is not None:
        query.update(code_challenge=challenge, code_challenge_method="S256")
    query.update(more)
    return query


def query_of(location: str) -> dict[str, str]:
    """The query of a redirect's address, one value a name."""
    return {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}


def consent(person: Client, query: dict[str, str], allow: bool = True) -> Any:
    """The person opens the consent page and presses Allow (or Deny): the answer to the press."""
    page = person.get("/oauth/authorize/", query)
    assert page.status_code == 200, page.content
    form = page.context["form"]
    fields = {name: form[name].value() or "" for name in form.fields if name != "allow"}
    if allow:
        fields["allow"] = "Authorize"
    return person.post("/oauth/authorize/", fields)


def code_for(person: Client, app: Application, challenge: str, scopes: str) -> str:
    """The code the app gets back once the person allowed it."""
    answer = consent(person, asked(app, challenge, scopes))
    assert answer.status_code == 302 and answer["Location"].startswith(CALLBACK), answer
    said = query_of(answer["Location"])
    assert said["state"] == "st4te"
    return said["code"]


def token_call(body: dict[str, str]) -> Any:
    """A post to the token endpoint, as the app makes it (no cookie, no CSRF token)."""
    return Client(enforce_csrf_checks=True).post("/oauth/token/", body)


def trade(app: Application, code: str, verifier: str) -> Any:
    """The code and its verifier traded for tokens."""
    return token_call(
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": CALLBACK,
            "client_id": app.client_id,
            "code_verifier": verifier,
        }
    )


def app_tokens(user: User, scopes: str, app: Application | None = None) -> dict[str, Any]:
    """The whole flow for this person: their app's access and refresh tokens."""
    app = app or an_app(user)
    person = Client()
    person.force_login(user)
    verifier, challenge = pkce()
    answer = trade(app, code_for(person, app, challenge, scopes), verifier)
    assert answer.status_code == 200, answer.content
    body: dict[str, Any] = answer.json()
    return body
