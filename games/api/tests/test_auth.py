"""Tokens at the API's door: none, unknown, revoked, expired, without the scope; the limits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import tokens
from accounts.models import AccessToken, User
from games.api import limits
from games.api.tests.conftest import Api

pytestmark = pytest.mark.django_db


def refusal(response: object, status: int) -> str:
    """The sentence of a JSON refusal of this status."""
    assert response.status_code == status, response.content  # type: ignore[attr-defined]
    assert response["Content-Type"] == "application/json"  # type: ignore[index]
    said = response.json()["error"]  # type: ignore[attr-defined]
    assert said.endswith("."), said
    return str(said)


def test_a_token_reads_its_account(player: User, api_for: Callable[..., Api]) -> None:
    answer = api_for(player).get("/account")
    assert answer.status_code == 200
    body = answer.json()
    assert body["name"] == "alice" and body["bot"] is False
    assert body["scopes"] == list(tokens.SCOPES)
    assert AccessToken.objects.get().last_used_at is not None


@pytest.mark.parametrize("header", [None, "", "Bearer", "Bearer   ", "Basic abc", "Token x"])
def test_no_token_is_401_in_words(player: User, header: str | None) -> None:
    api = Api(None)
    if header is not None:
        api.headers = {"Authorization": header}
    assert "needs a token" in refusal(api.get("/account"), 401)


def test_an_unknown_token_is_401(player: User) -> None:
    made = tokens.make(player.pk, "t", ["account:read"], None)
    assert "not one of ours" in refusal(Api(made.token + "x").get("/account"), 401)
    assert "not one of ours" in refusal(Api("bkh_00000000_nothing").get("/account"), 401)


def test_a_revoked_token_stops_at_once(player: User) -> None:
    made = tokens.make(player.pk, "t", ["account:read"], None)
    api = Api(made.token)
    assert api.get("/account").status_code == 200
    tokens.revoke(player.pk, made.row.pk)
    assert refusal(api.get("/account"), 401) == "This token was revoked."


def test_an_expired_token_stops(player: User) -> None:
    made = tokens.make(player.pk, "t", ["account:read"], 7)
    api = Api(made.token)
    assert api.get("/account").status_code == 200
    AccessToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert refusal(api.get("/account"), 401) == "This token has expired."


def test_a_closed_accounts_token_stops(player: User) -> None:
    api = Api(tokens.make(player.pk, "t", ["account:read"], None).token)
    User.objects.filter(pk=player.pk).update(is_active=False)
    assert refusal(api.get("/account"), 401) == "This token's account is closed."


def test_a_token_without_the_scope_is_403(player: User, api_for: Callable[..., Api]) -> None:
    api = api_for(player, ["chat:read"])
    assert "account:read" in refusal(api.get("/account"), 403)
    assert "account:read" in refusal(api.get("/account/games"), 403)


def test_a_token_over_its_limit_waits(
    player: User, api_for: Callable[..., Api], settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.API_TOKEN_REQUESTS_PER_MINUTE = 3  # type: ignore[attr-defined]
    monkeypatch.setattr(limits, "now", lambda: 6000.0 + 45)  # 15 s left in the window
    api = api_for(player)
    assert [api.get("/account").status_code for _ in range(3)] == [200, 200, 200]
    refused = api.get("/account")
    assert "wait 15 s" in refusal(refused, 429)
    assert refused["Retry-After"] == "15"
    assert api_for(player).get("/account").status_code == 200  # another token counts apart
    monkeypatch.setattr(limits, "now", lambda: 6000.0 + 61)
    assert api.get("/account").status_code == 200  # the next window


def test_a_client_over_its_limit_waits_whatever_the_token(
    player: User, api_for: Callable[..., Api], settings: object
) -> None:
    settings.API_CLIENT_REQUESTS_PER_MINUTE = 2  # type: ignore[attr-defined]
    assert Api("bkh_00000000_guess").get("/account").status_code == 401
    assert api_for(player).get("/account").status_code == 200
    refused = api_for(player).get("/account")
    refusal(refused, 429)
    assert int(refused["Retry-After"]) >= 1


def test_unknown_query_parameters_count_against_the_tokens_limit(
    player: User, api_for: Callable[..., Api], settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.API_TOKEN_REQUESTS_PER_MINUTE = 3  # type: ignore[attr-defined]
    monkeypatch.setattr(limits, "now", lambda: 6000.0 + 45)  # 15 s left in the window
    api = api_for(player)
    garbage = [api.get("/account?junk=1").status_code for _ in range(3)]
    assert garbage == [400, 400, 400]
    refused = api.get("/account?junk=1")
    assert "wait 15 s" in refusal(refused, 429)
    assert refused["Retry-After"] == "15"
    assert refusal(api.get("/account"), 429)  # the garbage used up what a good request needs
    assert api_for(player).get("/account?junk=1").status_code == 400  # another token apart


def test_unknown_query_parameters_count_against_the_clients_limit(
    player: User, api_for: Callable[..., Api], settings: object
) -> None:
    settings.API_CLIENT_REQUESTS_PER_MINUTE = 2  # type: ignore[attr-defined]
    assert "token" in refusal(Api(None).get("/account?junk=1"), 401)  # the door's words first
    assert api_for(player).get("/account?junk=1").status_code == 400
    refused = api_for(player).get("/account")
    refusal(refused, 429)
    assert int(refused["Retry-After"]) >= 1


def test_an_unknown_operation_is_a_404_in_words() -> None:
    assert "no such operation" in refusal(Api(None).get("/nothing/here"), 404)
