"""A person's apps page (accounts/oauth/): registering an app, the redirect addresses it may name
(https, or http on the loopback address: RFC 8252), the count, deleting one."""

from __future__ import annotations

import pytest
from django.test import Client
from oauth2_provider.models import Application

from accounts.models import User
from accounts.oauth import apps
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def maker(player: User) -> Client:
    return client_for(player)


@pytest.mark.parametrize(
    "uri",
    [
        "https://app.example/callback",
        "https://app.example:8443/cb?x=1",
        "http://127.0.0.1:8765/callback",
        "http://127.0.0.1/callback",
        "http://[::1]:9000/cb",
    ],
)
def test_these_redirects_may_be_registered(uri: str) -> None:
    assert apps.redirect_refusal(uri) == ""


@pytest.mark.parametrize(
    "uri",
    [
        "http://app.example/callback",
        "http://localhost:8000/callback",
        "http://127.0.0.2/callback",
        "com.example.app:/callback",
        "javascript:alert(1)",
        "https:///nohost",
        "https://app.example/cb#frag",
        "https://app.example:port/cb",
        "ftp://app.example/cb",
        "callback",
    ],
)
def test_these_redirects_are_refused_in_words(uri: str) -> None:
    said = apps.redirect_refusal(uri)
    assert said.endswith(".") and uri in said


def test_a_person_registers_a_public_app_and_deletes_it(player: User, maker: Client) -> None:
    page = maker.get("/accounts/settings/apps/")
    assert page.status_code == 200 and "Register the app" in page.content.decode()
    made = maker.post(
        "/accounts/settings/apps/",
        {"name": " Crumb Counter ", "redirect_uris": "https://a.example/cb\nhttp://127.0.0.1/cb"},
        follow=True,
    )
    app = Application.objects.get()
    assert app.name == "Crumb Counter" and app.user == player
    assert app.client_type == Application.CLIENT_PUBLIC and not app.skip_authorization
    assert app.redirect_uris == "https://a.example/cb http://127.0.0.1/cb"
    assert app.client_id in made.content.decode()
    stranger = Client()
    stranger.force_login(User.objects.create_user("dora", password="a-long-baking-secret"))
    stranger.post(f"/accounts/settings/apps/{app.pk}/delete/")
    assert Application.objects.exists()  # not theirs
    maker.post(f"/accounts/settings/apps/{app.pk}/delete/")
    assert not Application.objects.exists()


def test_a_bad_redirect_is_refused_on_the_page(maker: Client) -> None:
    refused = maker.post(
        "/accounts/settings/apps/",
        {"name": "Crumbs", "redirect_uris": "https://ok.example/cb http://evil.example/cb"},
    )
    assert refused.status_code == 400 and "http://evil.example/cb" in refused.content.decode()
    assert not Application.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": "", "redirect_uris": "https://a.example/cb"},
        {"name": "   ", "redirect_uris": "https://a.example/cb"},
        {"name": "x" * 500, "redirect_uris": "https://a.example/cb"},
        {"name": "Crumbs", "redirect_uris": "   "},
        {"name": "Crumbs", "redirect_uris": "https://a.example/" + "x" * 3000},
        {"name": "\x00", "redirect_uris": "\x00"},
    ],
)
def test_garbage_is_refused_with_words_and_changes_nothing(maker: Client, body: dict) -> None:
    assert maker.post("/accounts/settings/apps/", body).status_code == 400
    assert not Application.objects.exists()


def test_a_person_may_register_so_many_apps(player: User, maker: Client, settings: object) -> None:
    settings.OAUTH_APPS_PER_PERSON = 2  # type: ignore[attr-defined]
    for n in range(2):
        apps.register(player.pk, f"App {n}", ["https://a.example/cb"])
    refused = maker.post(
        "/accounts/settings/apps/", {"name": "Third", "redirect_uris": "https://a.example/cb"}
    )
    assert refused.status_code == 400 and "the most one person may have" in refused.content.decode()


def test_the_apps_page_needs_a_signed_in_person() -> None:
    answer = Client().get("/accounts/settings/apps/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
