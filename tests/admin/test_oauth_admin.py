"""Moderators see the third-party apps (OAuth2) and their tokens in admin, never a usable token,
and may delete an app, which ends every token it holds; they may not make or change one."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken as AppToken
from oauth2_provider.models import Application

from accounts.models import User
from games.api.tests.conftest import Api
from tests.accounts.oauth_flow import app_tokens
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db


def test_a_moderator_sees_apps_and_tokens_and_deletes_an_app(moderator: User, player: User) -> None:
    token = app_tokens(player, "account:read")["access_token"]
    app = Application.objects.get()
    admin = client_for(moderator)
    listed = admin.get("/admin/oauth2_provider/application/")
    assert listed.status_code == 200 and "Crumb Counter" in listed.text
    tokens = admin.get("/admin/oauth2_provider/accesstoken/")
    assert tokens.status_code == 200 and token not in tokens.text
    row = AppToken.objects.get()
    shown = admin.get(f"/admin/oauth2_provider/accesstoken/{row.pk}/change/")
    assert shown.status_code == 200 and token not in shown.text
    assert admin.get("/admin/oauth2_provider/application/add/").status_code == 403
    deleted = admin.post(f"/admin/oauth2_provider/application/{app.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 302 and not Application.objects.exists()
    assert Api(token).get("/account").status_code == 401


def test_a_moderator_revokes_an_apps_token_with_the_toolkits_action(
    moderator: User, player: User
) -> None:
    token = app_tokens(player, "account:read")["access_token"]
    row = AppToken.objects.get()
    admin = client_for(moderator)
    admin.post(
        "/admin/oauth2_provider/accesstoken/",
        {"action": "revoke_tokens", "_selected_action": [row.pk]},
    )
    assert Api(token).get("/account").status_code == 401
