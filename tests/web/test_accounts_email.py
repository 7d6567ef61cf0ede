"""The email address: verified by a link at sign-up and in settings; password resets by mail."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable

import pytest
from django.core import mail
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from accounts.models import User
from bakery_site.settings import email_settings
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

NEUTRAL = "If that address is verified for a Bakehouse account"
PASSWORD = "crusty-loaf-1987"


@pytest.fixture(autouse=True)
def _mail_to_outbox(settings: object) -> None:
    """Mail lands in django.core.mail.outbox; the rate limits' counts start from nothing."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # type: ignore[attr-defined]
    cache.clear()


def link_in(message: mail.EmailMessage) -> str:
    """The path of the one link a mail carries."""
    links = re.findall(r"https?://testserver(/\S+)", str(message.body))
    assert len(links) == 1, message.body
    return links[0]


def verified(name: str, email: str, make_user: Callable[[str], User]) -> User:
    user = make_user(name)
    user.email, user.email_verified = email, True
    user.save()
    return user


def signup(email: str, name: str = "dora") -> Client:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {"username": name, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302, response.content
    return client


def test_signup_with_an_address_mails_a_link_that_verifies_it() -> None:
    client = signup("Dora@Example.COM")
    dora = User.objects.get(username="dora")
    assert dora.email == "Dora@example.com"  # the domain lower-cased, as Django does
    assert not dora.email_verified
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["Dora@example.com"]
    assert mail.outbox[0].from_email == "Bakehouse <bakehouse@localhost>"
    page = Client().get(link_in(mail.outbox[0]))  # from another device, not logged in
    assert page.status_code == 200
    assert "Dora@example.com is verified" in page.content.decode()
    dora.refresh_from_db()
    assert dora.email_verified
    assert "verified." in client.get("/accounts/settings/").content.decode()


def test_signup_without_an_address_sends_nothing() -> None:
    signup("")
    assert User.objects.get(username="dora").email == ""
    assert mail.outbox == []


def test_signup_refuses_an_address_another_account_verified(
    make_user: Callable[[str], User],
) -> None:
    verified("alice", "alice@example.com", make_user)
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "ALICE@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "Another account has already verified this address" in response.content.decode()
    assert not User.objects.filter(username="dora").exists()
    assert mail.outbox == []


def test_a_tampered_link_is_refused_in_words_and_changes_nothing() -> None:
    signup("dora@example.com")
    path = link_in(mail.outbox[0])
    tampered = path[:-3] + ("A" if path[-3] != "A" else "B") + path[-2:]
    page = Client().get(tampered)
    assert page.status_code == 400
    assert "This link is not valid" in page.content.decode()
    assert not User.objects.get(username="dora").email_verified


def test_an_expired_link_is_refused_in_words_and_changes_nothing(settings: object) -> None:
    signup("dora@example.com")
    settings.EMAIL_VERIFY_MAX_AGE = -1  # type: ignore[attr-defined]  # every link is too old
    page = Client().get(link_in(mail.outbox[0]))
    assert page.status_code == 400
    assert "This link has expired" in page.content.decode()
    assert not User.objects.get(username="dora").email_verified


def test_changing_the_address_unverifies_it_and_mails_a_new_link(
    make_user: Callable[[str], User],
) -> None:
    dora = verified("dora", "dora@example.com", make_user)
    client = client_for(dora)
    response = client.post("/accounts/settings/email/", {"email": "dora@bakery.example"})
    assert response.status_code == 302
    dora.refresh_from_db()
    assert (dora.email, dora.email_verified) == ("dora@bakery.example", False)
    assert [m.to for m in mail.outbox] == [["dora@bakery.example"]]
    assert "not verified yet" in client.get("/accounts/settings/").content.decode()
    client.post("/accounts/settings/email/", {"resend": "1"})
    assert [m.to for m in mail.outbox] == [["dora@bakery.example"]] * 2
    assert Client().get(link_in(mail.outbox[1])).status_code == 200
    dora.refresh_from_db()
    assert dora.email_verified


def test_a_link_to_an_address_since_changed_is_refused() -> None:
    client = signup("dora@example.com")
    client.post("/accounts/settings/email/", {"email": "dora@bakery.example"})
    page = Client().get(link_in(mail.outbox[0]))
    assert page.status_code == 400
    assert "no longer has" in page.content.decode()
    assert not User.objects.get(username="dora").email_verified


def test_removing_the_address_and_refusing_a_verified_one(
    make_user: Callable[[str], User],
) -> None:
    verified("alice", "alice@example.com", make_user)
    dora = verified("dora", "dora@example.com", make_user)
    client = client_for(dora)
    taken = client.post("/accounts/settings/email/", {"email": "Alice@Example.com"})
    assert taken.status_code == 400
    assert "Another account has already verified this address" in taken.content.decode()
    dora.refresh_from_db()
    assert (dora.email, dora.email_verified) == ("dora@example.com", True)
    assert client.post("/accounts/settings/email/", {"email": ""}).status_code == 302
    dora.refresh_from_db()
    assert (dora.email, dora.email_verified) == ("", False)
    assert mail.outbox == []


def ask_reset(email: str, client: Client | None = None) -> str:
    """Ask for a reset link; the text of the page it answers with."""
    client = client or Client()
    response = client.post("/accounts/password/reset/", {"email": email})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/sent/"
    page = client.get(response["Location"])
    text = page.content.decode()
    assert NEUTRAL in text
    # The whole page, but for its fresh CSRF token.
    return re.sub(r'"X-CSRFToken": "\w+"', "", text)


def test_login_page_links_to_the_reset() -> None:
    page = Client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/password/reset/"' in page
    assert "Forgot your password?" in page


def test_a_reset_link_sets_a_new_password_and_works_once(
    make_user: Callable[[str], User],
) -> None:
    verified("dora", "dora@example.com", make_user)
    ask_reset("DORA@example.com")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["dora@example.com"]
    path = link_in(mail.outbox[0])
    client = Client()
    form_page = client.get(path, follow=True)  # Django moves the token into the session
    assert "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(
        set_url, {"new_password1": "a-fresh-rye-2024", "new_password2": "a-fresh-rye-2024"}
    )
    assert done.status_code == 302
    assert done["Location"] == "/accounts/password/reset/done/"
    logged = Client()
    response = logged.post("/accounts/login/", {"username": "dora", "password": "a-fresh-rye-2024"})
    assert response.status_code == 302
    assert "_auth_user_id" in logged.session
    again = Client().get(path, follow=True)
    assert "This link does not work" in again.content.decode()
    assert "Choose a new password" not in again.content.decode()


def test_an_expired_reset_link_is_refused(
    make_user: Callable[[str], User], settings: object
) -> None:
    verified("dora", "dora@example.com", make_user)
    ask_reset("dora@example.com")
    settings.PASSWORD_RESET_TIMEOUT = -1  # type: ignore[attr-defined]  # every link is too old
    page = Client().get(link_in(mail.outbox[0]), follow=True)
    assert "This link does not work" in page.content.decode()
    assert User.objects.get(username="dora").check_password("a-long-baking-secret")


def test_unknown_and_unverified_addresses_get_the_same_page_and_no_mail(
    make_user: Callable[[str], User],
) -> None:
    dora = make_user("dora")
    dora.email = "dora@example.com"  # given but never verified
    dora.save()
    verified("alice", "alice@example.com", make_user)
    unknown = ask_reset("nobody@example.com")
    unverified = ask_reset("dora@example.com")
    assert mail.outbox == []
    known = ask_reset("alice@example.com")
    assert len(mail.outbox) == 1
    assert unknown == unverified == known


def test_resets_are_limited_per_address_with_the_same_answer(
    make_user: Callable[[str], User],
) -> None:
    verified("dora", "dora@example.com", make_user)
    pages = {ask_reset("dora@example.com", Client(REMOTE_ADDR=f"10.0.0.{i}")) for i in range(5)}
    assert len(mail.outbox) == 3  # three an hour for one address, whoever asks
    assert len(pages) == 1


def test_resets_are_limited_per_client_with_the_same_answer(
    make_user: Callable[[str], User],
) -> None:
    for name in "abcdefg":
        verified(f"baker{name}", f"{name}@example.com", make_user)
    client = Client(REMOTE_ADDR="10.0.0.9")
    pages = {ask_reset(f"{name}@example.com", client) for name in "abcdefg"}
    assert len(mail.outbox) == 5  # five an hour from one client
    assert len(pages) == 1
    # Another client may still ask for the addresses the first one's excess did not use up.
    ask_reset("f@example.com", Client(REMOTE_ADDR="10.0.0.10"))
    assert len(mail.outbox) == 6


def test_email_url_gives_the_console_by_default_and_smtp_by_url(settings: object) -> None:
    assert email_settings("console://")["EMAIL_BACKEND"] == (
        "django.core.mail.backends.console.EmailBackend"
    )
    smtp = email_settings("submission://baker%40example.com:s3cret@mail.example.com")
    assert smtp["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"], smtp["EMAIL_USE_TLS"]) == (
        "mail.example.com",
        587,
        True,
    )
    assert smtp["EMAIL_HOST_USER"] == "baker@example.com"
    with pytest.raises(ImproperlyConfigured, match="unknown scheme"):
        email_settings("consolemail://")


def test_the_site_default_is_the_console() -> None:
    """Without EMAIL_URL the settings module picks the console backend (`make run`)."""
    env = {k: v for k, v in os.environ.items() if k not in {"EMAIL_URL", "DEFAULT_FROM_EMAIL"}}
    code = "import bakery_site.settings as s; print(s.EMAIL_URL, s.EMAIL_BACKEND)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["console://", "django.core.mail.backends.console.EmailBackend"]


COUNT_ONE = """
import django, sys
django.setup()
from accounts.emails import under_limit
print(under_limit(sys.argv[1], 3))
"""


def test_with_cache_url_a_limit_counts_across_processes() -> None:
    """CACHE_URL puts the limits on Redis: four requests from two processes meet a limit of 3."""
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.skip("REDIS_URL is not set")
    key = f"test-limit:{os.getpid()}:{os.urandom(4).hex()}"
    env = {**os.environ, "CACHE_URL": redis_url, "DJANGO_SETTINGS_MODULE": "bakery_site.settings"}
    said = [
        subprocess.run(
            [sys.executable, "-c", COUNT_ONE, key],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for _ in range(4)
    ]
    assert said == ["True", "True", "True", "False"]
