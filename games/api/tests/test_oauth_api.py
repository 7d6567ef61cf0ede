"""An app's OAuth2 access token at the API (accounts/oauth/keys.py, through accounts/keys.py):
let in exactly where a personal token is, with the same scope checks, limits, refusals in the
same words, bot-account rules and answers, and stopped at once when revoked, its streams too."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken as AppToken

from accounts import keys, tokens
from accounts.models import User
from accounts.oauth import keys as app_keys
from games import services
from games.api import limits
from games.api.streams import TokenWatch
from games.api.tests.conftest import Api
from games.api.tests.test_game_stream import stream, table_and_first
from tests.accounts.oauth_flow import an_app, app_tokens

pytestmark = pytest.mark.django_db

Maker = Callable[..., Api]


def said(answer: Any) -> tuple[int, str]:
    """A refusal's status and sentence."""
    return answer.status_code, answer.json()["error"]


def test_an_app_token_reads_the_account_as_a_personal_one(
    player: User, api_for: Maker, app_api_for: Maker
) -> None:
    scopes = ["account:read", "chat:read"]
    mine, app = api_for(player, scopes).get("/account"), app_api_for(player, scopes).get("/account")
    assert mine.status_code == app.status_code == 200
    assert mine.json() == app.json()


@pytest.mark.parametrize(
    ("scopes", "path"),
    [
        (["chat:read"], "/account"),
        (["account:read"], "/stream/event"),
        (["account:read"], "/challenges"),
    ],
)
def test_a_missing_scope_is_refused_in_the_same_words(
    player: User, api_for: Maker, app_api_for: Maker, scopes: list[str], path: str
) -> None:
    personal = said(api_for(player, scopes).get(path))
    assert personal[0] == 403
    assert said(app_api_for(player, scopes).get(path)) == personal


def test_the_same_move_refusal_in_the_same_words(
    player: User, rival: User, api_for: Maker, app_api_for: Maker
) -> None:
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    services.start(game, player)
    body = {"action": {"nonsense": 1}, "version": 0}
    personal = said(api_for(player).post(f"/games/{game.pk}/move", body))
    assert personal[0] in (400, 409)
    assert said(app_api_for(player).post(f"/games/{game.pk}/move", body)) == personal


def test_a_table_reads_the_same_to_either_token(
    player: User, rival: User, outsider: User, api_for: Maker, app_api_for: Maker
) -> None:
    game = services.create_game(player, "midnight-bakery", 2)
    services.join(game, rival)
    services.start(game, player)
    for user in (player, outsider):
        mine = api_for(user).get(f"/games/{game.pk}")
        app = app_api_for(user).get(f"/games/{game.pk}")
        assert mine.status_code == app.status_code == 200
        assert mine.json() == app.json()


def test_expired_and_closed_are_the_personal_tokens_words(player: User, app_api_for: Maker) -> None:
    api = app_api_for(player)
    User.objects.filter(pk=player.pk).update(is_active=False)
    assert said(api.get("/account")) == (401, "This token's account is closed.")
    User.objects.filter(pk=player.pk).update(is_active=True)
    AppToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    assert said(api.get("/account")) == (401, "This token has expired.")


def test_an_app_token_has_its_own_limit_beside_its_persons_tokens(
    player: User,
    api_for: Maker,
    app_api_for: Maker,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.API_TOKEN_REQUESTS_PER_MINUTE = 3
    monkeypatch.setattr(limits, "now", lambda: 6000.0 + 45)  # 15 s left in the window
    app = app_api_for(player)
    assert [app.get("/account").status_code for _ in range(3)] == [200, 200, 200]
    refused = app.get("/account")
    assert refused.status_code == 429 and refused["Retry-After"] == "15"
    assert "wait 15 s" in refused.json()["error"]
    assert api_for(player).get("/account").status_code == 200  # a personal token counts apart
    monkeypatch.setattr(limits, "now", lambda: 6000.0 + 61)
    assert app.get("/account").status_code == 200  # the next window


def test_the_clients_limit_counts_app_tokens_too(
    player: User, app_api_for: Maker, settings: Any
) -> None:
    app = app_api_for(player)
    settings.API_CLIENT_REQUESTS_PER_MINUTE = 2
    assert Api("bko_guess").get("/account").status_code == 401
    assert app.get("/account").status_code == 200
    refused = app.get("/account")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1


def test_the_bot_upgrade_needs_bot_play_from_an_app_too(
    outsider: User, api_for: Maker, app_api_for: Maker
) -> None:
    scopes = ["account:read", "games:play"]
    personal = said(api_for(outsider, scopes).post("/bot/account/upgrade"))
    assert personal[0] == 403
    assert said(app_api_for(outsider, scopes).post("/bot/account/upgrade")) == personal
    upgraded = app_api_for(outsider, ["bot:play"]).post("/bot/account/upgrade")
    assert upgraded.status_code == 200 and upgraded.json()["bot"] is True


def test_revoked_on_the_settings_page_it_stops_at_once(player: User, rival: User) -> None:
    api = Api(app_tokens(player, "account:read")["access_token"])
    row = AppToken.objects.get()
    other = Client()
    other.force_login(rival)
    other.post(f"/accounts/settings/tokens/apps/{row.pk}/revoke/")
    assert api.get("/account").status_code == 200  # not theirs to revoke
    person = Client()
    person.force_login(player)
    page = person.get("/accounts/settings/tokens/")
    assert "Crumb Counter" in page.content.decode()
    revoked = person.post(f"/accounts/settings/tokens/apps/{row.pk}/revoke/", follow=True)
    assert "revoked" in revoked.content.decode()
    refused = api.get("/account")
    assert refused.status_code == 401 and refused.json()["error"].endswith(".")
    assert "Crumb Counter" not in person.get("/accounts/settings/tokens/").content.decode()


def test_an_app_deleted_by_its_maker_takes_its_tokens(player: User, rival: User) -> None:
    app = an_app(player)
    api = Api(app_tokens(rival, "account:read", app)["access_token"])
    maker = Client()
    maker.force_login(rival)
    maker.post(f"/accounts/settings/apps/{app.pk}/delete/")
    assert api.get("/account").status_code == 200  # not the rival's app to delete
    maker.force_login(player)
    maker.post(f"/accounts/settings/apps/{app.pk}/delete/")
    assert api.get("/account").status_code == 401


def test_the_watch_reads_each_kind_of_key_in_one_query(
    player: User, settings: Any, django_assert_num_queries: Any
) -> None:
    settings.STREAM_RECHECK_SECONDS = 60
    personal = tokens.make(player.pk, "t", ["account:read"], None).row.label
    found = keys.find(app_tokens(player, "account:read")["access_token"])
    assert found is not None
    app = found.label
    watch = TokenWatch()
    with django_assert_num_queries(1):
        assert watch.refusal(personal) == ""
    with django_assert_num_queries(2):  # a key not read yet: read at once, with the rest
        assert watch.refusal(app) == ""
    AppToken.objects.all().delete()  # revoked: the toolkit deletes it
    watch.read_at -= 60
    assert watch.refusal(app) == "This token is gone." and watch.refusal(personal) == ""


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_quick_looks")
async def test_a_revoked_app_token_ends_its_stream(player: User, rival: User) -> None:
    game, first, _, _ = await table_and_first(player, rival)
    token = await database_sync_to_async(app_tokens)(first, "account:read games:play")
    reader = await stream(f"/games/{game.pk}/stream", token["access_token"])
    assert (await reader.line())["type"] == "gameFull"
    row = await database_sync_to_async(AppToken.objects.get)()
    await database_sync_to_async(app_keys.revoke)(first.pk, row.pk)
    end = await asyncio.wait_for(reader.until("end"), 10)
    assert end["why"] == "This token is gone." and await reader.ended()


@pytest.fixture
def _quick_looks(settings: Any) -> None:
    """The token is looked at often, so a revocation shows at once."""
    settings.STREAM_RECHECK_SECONDS = 0.05
