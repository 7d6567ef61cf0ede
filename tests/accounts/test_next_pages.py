"""Issue 38, hole 4: a page the client names as next (?next=, a posted next) is followed only
when it is a path on this site (accounts/redirects.py); anything else goes to a sensible default,
never a 500 (redirect() took "foo" for a URL name) and never another site."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client

from accounts.models import Friendship, User
from accounts.redirects import local_path
from games.notifications.models import Notification
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "crusty-loaf-1987"
NOT_PATHS = ["foo", "//evil.example", "https://evil.example", "/\\evil.example", "/ok\r\nX: y"]
HOME = "/games/history/"  # a page of this site anyone may open


def goes_to(response: Any, where: str) -> None:
    """A redirect to this very path of the site."""
    assert response.status_code == 302, response.content[:300]
    assert response["Location"] == where


@pytest.mark.parametrize("target", NOT_PATHS)
def test_a_signup_with_a_next_that_is_not_a_path_lands_in_the_lobby_logged_in(
    target: str,
) -> None:
    client = Client()
    answer = client.post(
        "/accounts/signup/?" + urlencode({"next": target}),
        {"username": "dora", "password1": PASSWORD, "password2": PASSWORD},
    )
    goes_to(answer, "/")
    assert "_auth_user_id" in client.session
    again = client.get("/accounts/signup/", {"next": target})  # signed in already
    goes_to(again, "/")


def test_a_signup_follows_a_next_on_this_site() -> None:
    client = Client()
    answer = client.post(
        f"/accounts/signup/?next={HOME}",
        {"username": "dora", "password1": PASSWORD, "password2": PASSWORD},
    )
    goes_to(answer, HOME)
    goes_to(client.get("/accounts/signup/", {"next": HOME}), HOME)


@pytest.mark.parametrize("target", NOT_PATHS)
def test_the_signup_page_passes_no_foreign_next_to_its_log_in_link(target: str) -> None:
    page = Client().get("/accounts/signup/", {"next": target}).content.decode()
    assert "evil" not in page and "next=foo" not in page


@pytest.mark.parametrize("target", NOT_PATHS)
def test_a_friend_button_with_a_next_that_is_not_a_path_goes_back_to_the_profile(
    target: str, player: User, rival: User
) -> None:
    answer = client_for(player).post("/games/friends/bob/ask/", {"next": target})
    goes_to(answer, "/u/bob/")
    assert Friendship.objects.filter(from_user=player, to_user=rival).exists()  # and saved


def test_a_friend_button_goes_back_to_the_page_that_posted_it(player: User, rival: User) -> None:
    answer = client_for(player).post("/games/friends/bob/ask/", {"next": "/games/friends/"})
    goes_to(answer, "/games/friends/")


@pytest.mark.parametrize("target", NOT_PATHS)
def test_a_log_in_with_a_next_that_is_not_a_path_lands_in_the_lobby(
    target: str, make_user: Callable[[str], User]
) -> None:
    make_user("dora")
    client = Client()
    form = client.get("/accounts/login/", {"next": target}).content.decode()
    assert "evil" not in form and 'value="foo"' not in form
    answer = client.post(
        "/accounts/login/",
        {"username": "dora", "password": "a-long-baking-secret", "next": target},
    )
    goes_to(answer, "/")


@pytest.mark.parametrize("target", NOT_PATHS)
def test_a_log_out_with_a_next_that_is_not_a_path_lands_in_the_lobby(
    target: str, player: User
) -> None:
    goes_to(client_for(player).post("/accounts/logout/", {"next": target}), "/")


def test_log_in_and_log_out_follow_a_next_on_this_site(make_user: Callable[[str], User]) -> None:
    make_user("dora")
    client = Client()
    answer = client.post(
        "/accounts/login/", {"username": "dora", "password": "a-long-baking-secret", "next": HOME}
    )
    goes_to(answer, HOME)
    goes_to(client.post("/accounts/logout/", {"next": HOME}), HOME)


def test_a_notification_whose_link_is_not_a_path_opens_the_inbox(player: User) -> None:
    row = Notification.objects.create(
        recipient=player, kind="friend", key="odd", text="An odd one", url="foo"
    )
    goes_to(client_for(player).get(f"/games/inbox/{row.pk}/"), "/games/inbox/")


@pytest.mark.parametrize("target", [*NOT_PATHS, "", None, 7, "/a b", "/\x00", "http:/x"])
def test_only_a_plain_local_path_is_followed(target: object) -> None:
    assert local_path(target, "/fallback/") == "/fallback/"


@pytest.mark.parametrize("target", ["/", "/games/7/?invite=abc", "/u/dora/#ratings", "/%2F%2Fx"])
def test_a_local_path_is_followed_as_it_is(target: str) -> None:
    assert local_path(target, "/fallback/") == target
