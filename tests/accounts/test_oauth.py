"""OAuth2 with PKCE for third-party apps (accounts/oauth/): the whole flow through the site's own
endpoints, from the consent page to a revoked token refused by the API; every refusal in words,
a hostile redirect never followed, garbage in every field answered without a 500."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken as AppToken
from oauth2_provider.models import Application, Grant

from accounts.models import User
from accounts.oauth import apps, validator
from games.api.tests.conftest import Api
from tests.accounts.oauth_flow import (
    CALLBACK,
    an_app,
    app_tokens,
    asked,
    code_for,
    consent,
    pkce,
    query_of,
    token_call,
    trade,
)
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(player: User) -> Client:
    """The person an app asks, signed in."""
    return client_for(player)


def refused_back(answer: Any) -> dict[str, str]:
    """An authorization refusal sent back to the app: its query, with words in it."""
    assert answer.status_code == 302 and answer["Location"].startswith(CALLBACK + "?"), answer
    said = query_of(answer["Location"])
    assert said["error"] and said["error_description"].endswith("."), said
    assert said["state"] == "st4te"
    return said


def test_the_whole_flow_from_consent_to_a_revoked_token(player: User, person: Client) -> None:
    app = an_app(player)
    verifier, challenge = pkce()
    page = person.get("/oauth/authorize/", asked(app, challenge, "account:read games:play"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Crumb Counter" in text and "Allow" in text and "Deny" in text
    assert "Read your account, your games and your tables" in text
    assert "Play: make moves and resign at your tables" in text
    assert "chat" not in text.lower().split("consent-form")[0].split("<ul")[1].split("</ul>")[0]
    assert "form-action 'self' https://app.example" in page["Content-Security-Policy"]

    code = code_for(person, app, challenge, "account:read games:play")
    answer = trade(app, code, verifier)
    assert answer.status_code == 200, answer.content
    tokens = answer.json()
    assert tokens["token_type"] == "Bearer" and tokens["access_token"].startswith("bko_")
    assert tokens["scope"] == "account:read games:play" and tokens["expires_in"] == 3600
    assert AppToken.objects.get().token == ""  # only its digest is stored

    api = Api(tokens["access_token"])
    account = api.get("/account")
    assert account.status_code == 200
    assert account.json()["name"] == "alice"
    assert account.json()["scopes"] == ["account:read", "games:play"]
    assert trade(app, code, verifier).status_code == 400  # a code is good once

    renewed = token_call(
        {
            "grant_type": "refresh_token",
            "refresh_token": tokens["refresh_token"],
            "client_id": app.client_id,
        }
    )
    assert renewed.status_code == 200, renewed.content
    fresh = renewed.json()
    assert fresh["access_token"] != tokens["access_token"]
    assert api.get("/account").status_code == 401  # the old one went with its refresh token
    api = Api(fresh["access_token"])
    assert api.get("/account").status_code == 200

    revoked = Client(enforce_csrf_checks=True).post(
        "/oauth/revoke/", {"token": fresh["access_token"], "client_id": app.client_id}
    )
    assert revoked.status_code == 200
    refused = api.get("/account")
    assert refused.status_code == 401 and refused.json()["error"].endswith(".")
    again = token_call(
        {
            "grant_type": "refresh_token",
            "refresh_token": fresh["refresh_token"],
            "client_id": app.client_id,
        }
    )
    assert again.status_code == 400  # its refresh token went with it: no new token
    assert not AppToken.objects.exists()


def test_a_request_without_pkce_is_refused_in_words(player: User, person: Client) -> None:
    said = refused_back(person.get("/oauth/authorize/", asked(an_app(player), None)))
    assert said["error"] == "invalid_request"
    assert said["error_description"] == validator.NO_CHALLENGE
    assert not Grant.objects.exists()


@pytest.mark.parametrize("method", ["plain", None, "s256", "S512"])
def test_a_challenge_not_s256_is_refused_in_words(
    player: User, person: Client, method: str | None
) -> None:
    verifier, _ = pkce()
    query = asked(an_app(player), verifier)
    query.pop("code_challenge_method")
    if method is not None:
        query["code_challenge_method"] = method
    said = refused_back(person.get("/oauth/authorize/", query))
    assert said["error_description"] == validator.NOT_S256


def test_a_plain_challenge_slipped_into_the_consent_form_is_refused(
    player: User, person: Client
) -> None:
    verifier, challenge = pkce()
    app = an_app(player)
    page = person.get("/oauth/authorize/", asked(app, challenge))
    form = page.context["form"]
    fields = {name: form[name].value() or "" for name in form.fields}
    fields.update(allow="Authorize", code_challenge=verifier, code_challenge_method="plain")
    said = refused_back(person.post("/oauth/authorize/", fields))
    assert said["error_description"] == validator.NOT_S256
    assert not Grant.objects.exists()


def test_a_wrong_verifier_gets_no_token(player: User, person: Client) -> None:
    app = an_app(player)
    verifier, challenge = pkce()
    code = code_for(person, app, challenge, "account:read")
    other, _ = pkce()
    for wrong in (other, "", verifier + "x"):
        answer = trade(app, code, wrong)
        assert answer.status_code == 400 and answer.json()["error"] in (
            "invalid_grant",
            "invalid_request",
        )
    assert not AppToken.objects.exists()


@pytest.mark.parametrize(
    "hostile",
    [
        "https://evil.example/callback",
        "https://app.example/callback/../../evil",
        "https://app.example.evil.example/callback",
        "http://app.example/callback",
        "javascript:alert(1)",
        "https://app.example/callbackx",
    ],
)
def test_an_unregistered_redirect_is_never_followed(
    player: User, person: Client, hostile: str
) -> None:
    _, challenge = pkce()
    answer = person.get("/oauth/authorize/", asked(an_app(player), challenge, redirect_uri=hostile))
    assert answer.status_code == 400 and not answer.has_header("Location")
    text = answer.content.decode()
    assert "cannot serve" in text and 'evil.example/callback"' not in text
    assert not Grant.objects.exists()


def test_an_unknown_app_is_told_on_the_page(person: Client) -> None:
    _, challenge = pkce()
    query = asked(Application(client_id="nobody"), challenge)
    answer = person.get("/oauth/authorize/", query)
    assert answer.status_code in (400, 401) and not answer.has_header("Location")
    assert "cannot serve" in answer.content.decode()


def test_deny_sends_the_app_back_with_nothing(player: User, person: Client) -> None:
    _, challenge = pkce()
    said = refused_back(consent(person, asked(an_app(player), challenge), allow=False))
    assert said["error"] == "access_denied" and "code" not in said
    assert not Grant.objects.exists()


def test_an_unknown_scope_is_refused(player: User, person: Client) -> None:
    _, challenge = pkce()
    said = refused_back(person.get("/oauth/authorize/", asked(an_app(player), challenge, "all")))
    assert said["error"] == "invalid_scope"


def test_the_consent_page_asks_a_stranger_to_log_in(player: User) -> None:
    _, challenge = pkce()
    answer = Client().get("/oauth/authorize/", asked(an_app(player), challenge))
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


def test_the_consent_page_speaks_the_readers_language(
    player: User, rival: User, person: Client
) -> None:
    User.objects.filter(pk=player.pk).update(language="fr")
    _, challenge = pkce()
    page = person.get("/oauth/authorize/", asked(an_app(rival), challenge, "chat:read"))
    text = page.content.decode()
    assert page.status_code == 200 and 'lang="fr"' in text
    assert "Allow" not in text and "Deny" not in text
    assert "Read the chat of tables you may see" not in text


def test_a_loopback_app_may_come_back_on_any_port(player: User, person: Client) -> None:
    app = apps.register(player.pk, "Desk", ["http://127.0.0.1/callback"])
    _, challenge = pkce()
    query = asked(app, challenge, redirect_uri="http://127.0.0.1:53682/callback")
    assert person.get("/oauth/authorize/", query).status_code == 200
    query["redirect_uri"] = "http://127.0.0.1:53682/elsewhere"
    assert person.get("/oauth/authorize/", query).status_code == 400


def test_an_expired_token_is_refused(player: User) -> None:
    api = Api(app_tokens(player, "account:read")["access_token"])
    AppToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    refused = api.get("/account")
    assert refused.status_code == 401 and refused.json()["error"] == "This token has expired."


GARBAGE = ["", "x" * 5000, "\x00", "é🍞", "' OR 1=1 --", "%ff%fe", "a b c", "-1", "[]"]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_field_is_no_500(player: User, person: Client, junk: str) -> None:
    app = an_app(player)
    verifier, challenge = pkce()
    good = asked(app, challenge)
    for field in [*good, "prompt", "approval_prompt", "resource", "nonce", "claims"]:
        answer = person.get("/oauth/authorize/", {**good, field: junk})
        assert answer.status_code < 500, (field, answer.status_code)
        page = person.get("/oauth/authorize/", good)
        form = page.context["form"]
        fields = {name: form[name].value() or "" for name in form.fields}
        fields.update(allow="Authorize")
        assert person.post("/oauth/authorize/", {**fields, field: junk}).status_code < 500
    code = code_for(person, app, challenge, "account:read")
    token = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": CALLBACK,
        "client_id": app.client_id,
        "code_verifier": verifier,
    }
    for field in [*token, "refresh_token", "scope", "client_secret"]:
        answer = token_call({**token, field: junk})
        assert answer.status_code < 500, (field, answer.status_code)
    for field in ("token", "token_type_hint", "client_id"):
        body = {"token": junk, "client_id": app.client_id, field: junk}
        answer = Client().post("/oauth/revoke/", body)
        assert answer.status_code < 500, (field, answer.status_code)
    assert Api(junk).get("/account").status_code in (400, 401)
    assert Api("bko_" + junk).get("/account").status_code in (400, 401)


def test_an_http_address_registered_behind_the_page_is_never_followed(
    player: User, person: Client
) -> None:
    app = an_app(player)
    Application.objects.filter(pk=app.pk).update(redirect_uris="http://app.example/callback")
    _, challenge = pkce()
    query = asked(app, challenge, redirect_uri="http://app.example/callback")
    answer = person.get("/oauth/authorize/", query)
    assert answer.status_code == 400 and not answer.has_header("Location")
