"""Sign-up, log-in lockout, log-out, password change and profiles."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import client_for

# backend: names unique whatever their case: a database constraint.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def test_signup_creates_an_account_and_logs_in() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {"username": "dora", "password1": "crusty-loaf-1987", "password2": "crusty-loaf-1987"},
    )
    assert response.status_code == 302
    assert User.objects.filter(username="dora", is_bot=False).exists()
    assert client.get("/").context["user"].username == "dora"


@pytest.mark.parametrize(
    ("next_url", "lands"),
    [
        ("/games/new/", "/games/new/"),
        ("https://evil.example/", "/"),
        ("//evil.example/", "/"),
        ("", "/"),
    ],
)
def test_signup_goes_to_next_only_on_this_site(next_url: str, lands: str) -> None:
    response = Client().post(
        f"/accounts/signup/?next={next_url}",
        {"username": "dora", "password1": "crusty-loaf-1987", "password2": "crusty-loaf-1987"},
    )
    assert response.status_code == 302
    assert response["Location"] == lands


def test_signup_refuses_mismatched_passwords() -> None:
    response = Client().post(
        "/accounts/signup/",
        {"username": "dora", "password1": "crusty-loaf-1987", "password2": "other-loaf-1987"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="dora").exists()


def test_login_then_logout(player: User) -> None:
    client = Client()
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "a-long-baking-secret"}
    )
    assert response.status_code == 302
    assert client.post("/accounts/logout/").status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_repeated_failed_logins_lock_the_account_out(player: User, settings: object) -> None:
    client = Client()
    for _ in range(5):
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "a-long-baking-secret"}
    )
    assert response.status_code in {403, 429}
    assert "_auth_user_id" not in client.session


def test_password_change_needs_login_and_works(player: User) -> None:
    assert Client().get("/accounts/password/").status_code == 302
    client = client_for(player)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": "a-long-baking-secret",
            "new_password1": "a-newer-baking-secret",
            "new_password2": "a-newer-baking-secret",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("a-newer-baking-secret")


def test_profile_lists_the_players_games(running_game: object, player: User) -> None:
    response = Client().get("/u/alice/")
    assert response.status_code == 200
    assert b"Midnight Bakery #" in response.content


def test_profile_of_unknown_user_is_404() -> None:
    assert Client().get("/u/nobody/").status_code == 404


def test_names_are_escaped_in_the_lobby_and_table() -> None:
    from games import services

    host = User.objects.create_user(username="x<y", password="a-long-baking-secret")
    host.username = "<i>host</i>"
    host.save()
    game = services.create_game(host, "midnight-bakery", 2)
    for url in ("/", game.get_absolute_url()):
        body = Client().get(url).content
        assert b"<i>host</i>" not in body
        assert b"&lt;i&gt;host&lt;/i&gt;" in body
