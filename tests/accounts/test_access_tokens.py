"""Personal access tokens on the settings page: made, shown once, stored hashed, revoked."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts import tokens
from accounts.models import AccessToken, User
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

PAGE = "/accounts/settings/tokens/"
TOKEN = re.compile(r"bkh_[0-9a-f]{8}_[A-Za-z0-9_-]{20,}")


def make_on_page(client: Client, **fields: object) -> tuple[int, str]:
    """Post the form; its status and the page."""
    data = {"name": "my bot", "scopes": ["account:read", "games:play"], "expiry": "", **fields}
    response = client.post(PAGE, data)
    return response.status_code, response.content.decode()


def test_the_settings_page_links_to_the_tokens(player: User) -> None:
    body = client_for(player).get("/accounts/settings/").content.decode()
    assert f'href="{PAGE}"' in body


def test_a_new_token_is_shown_once_and_stored_only_as_a_digest(player: User) -> None:
    client = client_for(player)
    status, body = make_on_page(client)
    assert status == 201
    shown = TOKEN.findall(body)
    assert len(shown) == 1
    row = AccessToken.objects.get(user=player)
    assert row.name == "my bot" and row.scope_list == ["account:read", "games:play"]
    assert shown[0] not in str(AccessToken.objects.filter(pk=row.pk).values().get())
    assert row.digest == tokens.digest_of(shown[0])
    again = client.get(PAGE).content.decode()
    assert shown[0] not in again and TOKEN.search(again) is None
    assert f"bkh_{row.prefix}" in again  # the public prefix tells them apart


def test_a_token_is_found_by_its_whole_secret_only(player: User) -> None:
    made = tokens.make(player.pk, "t", ["account:read"], None)
    assert tokens.find(made.token) == made.row
    assert tokens.find(made.token[:-1] + ("A" if made.token[-1] != "A" else "B")) is None
    assert tokens.find(f"bkh_{made.row.prefix}_") is None
    assert tokens.find("nonsense") is None


def test_a_token_needs_a_name_and_a_scope(player: User) -> None:
    status, body = make_on_page(client_for(player), name="   ", scopes=[])
    assert status == 400
    assert "This field is required." in body and "Tick at least one thing" in body
    assert not AccessToken.objects.exists()


def test_a_long_name_or_an_unknown_scope_is_refused(player: User) -> None:
    client = client_for(player)
    assert make_on_page(client, name="x" * (tokens.NAME_MAX + 1))[0] == 400
    assert make_on_page(client, scopes=["admin:everything"])[0] == 400
    assert make_on_page(client, expiry="12")[0] == 400
    assert not AccessToken.objects.exists()


def test_an_expiry_sets_when_it_stops(player: User) -> None:
    assert make_on_page(client_for(player), expiry="30")[0] == 201
    row = AccessToken.objects.get()
    assert row.expires_at is not None and row.refusal(row.expires_at) == "This token has expired."


def test_a_person_holds_at_most_the_setting_of_tokens(player: User, settings: object) -> None:
    settings.API_TOKENS_PER_PERSON = 2  # type: ignore[attr-defined]
    client = client_for(player)
    assert make_on_page(client)[0] == 201
    assert make_on_page(client)[0] == 201
    status, body = make_on_page(client)
    assert status == 400 and "You hold 2 tokens already" in body
    tokens.revoke(player.pk, AccessToken.objects.first().pk)  # type: ignore[union-attr]
    assert make_on_page(client)[0] == 201


def test_revoking_stops_the_token_and_only_its_owner_may(player: User, rival: User) -> None:
    made = tokens.make(player.pk, "t", ["account:read"], None)
    url = f"{PAGE}{made.row.pk}/revoke/"
    assert client_for(rival).post(url).status_code == 302
    made.row.refresh_from_db()
    assert made.row.revoked_at is None
    assert client_for(player).get(url).status_code == 405
    assert client_for(player).post(url).status_code == 302
    made.row.refresh_from_db()
    assert made.row.revoked_at is not None
    assert made.row.refusal(made.row.revoked_at) == "This token was revoked."


def test_the_page_needs_a_login() -> None:
    assert Client().get(PAGE).status_code == 302


def test_admin_lists_tokens_without_their_digest(player: User) -> None:
    made = tokens.make(player.pk, "visible name", ["account:read"], None)
    boss = User.objects.create_superuser(username="boss", password="a-long-baking-secret")
    admin = client_for(boss)
    listing = admin.get("/admin/accounts/accesstoken/").content.decode()
    assert "visible name" in listing and made.row.prefix in listing
    page = admin.get(f"/admin/accounts/accesstoken/{made.row.pk}/change/").content.decode()
    assert made.row.digest not in page and made.token not in page
    assert admin.get("/admin/accounts/accesstoken/add/").status_code == 403


def test_the_tokens_page_links_to_the_api_docs(player: User) -> None:
    body = client_for(player).get(PAGE).content.decode()
    assert 'href="/api/docs"' in body
