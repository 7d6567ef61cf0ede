"""The email address: verified by a link at sign-up and in settings; password resets by mail."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import emails
from accounts.models import User
from bakery_site.mail import email_settings
from games.live import task_worker
from tests.conftest import client_for
from tests.support.mail_queue import sent

# The mails go through the task queue, whose worker needs committed rows
# (tests/support/mail_queue.py).
pytestmark = pytest.mark.django_db(transaction=True)

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
    [message] = sent()
    assert message.to == ["Dora@example.com"]
    assert message.from_email == "Bakehouse <bakehouse@localhost>"
    page = Client().get(link_in(message))  # from another device, not logged in
    assert page.status_code == 200
    assert "Dora@example.com is verified" in page.content.decode()
    dora.refresh_from_db()
    assert dora.email_verified
    assert "verified." in client.get("/accounts/settings/").content.decode()


def test_signup_without_an_address_sends_nothing() -> None:
    signup("")
    assert User.objects.get(username="dora").email == ""
    assert sent() == []


def test_signup_with_an_address_another_account_verified_answers_as_any_and_tells_its_mailbox(
    make_user: Callable[[str], User],
) -> None:
    verified("alice", "alice@example.com", make_user)
    signup("fresh@example.com", name="erin")
    taken = Client()
    response = taken.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "ALICE@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )
    # The page says what it says for any address: nothing tells a stranger it has an account.
    said = [str(m) for m in response.context["messages"]]
    assert said == ["We are mailing a link to ALICE@example.com: follow it to verify it."]
    assert "already" not in response.content.decode()
    dora = User.objects.get(username="dora")
    assert not dora.email_verified
    mails = {m.to[0]: m for m in sent()}
    told = mails["ALICE@example.com"]
    assert 'already belongs to your account "alice"' in told.body
    assert "/accounts/email/verify/" not in told.body  # no link to verify it for dora
    assert "/accounts/email/verify/" in mails["fresh@example.com"].body


def test_a_tampered_link_is_refused_in_words_and_changes_nothing() -> None:
    signup("dora@example.com")
    path = link_in(sent()[0])
    tampered = path[:-3] + ("A" if path[-3] != "A" else "B") + path[-2:]
    page = Client().get(tampered)
    assert page.status_code == 400
    assert "This link is not valid" in page.content.decode()
    assert not User.objects.get(username="dora").email_verified


def test_an_expired_link_is_refused_in_words_and_changes_nothing(settings: object) -> None:
    signup("dora@example.com")
    settings.EMAIL_VERIFY_MAX_AGE = -1  # type: ignore[attr-defined]  # every link is too old
    page = Client().get(link_in(sent()[0]))
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
    assert [m.to for m in sent()] == [["dora@bakery.example"]]
    assert "not verified yet" in client.get("/accounts/settings/").content.decode()
    client.post("/accounts/settings/email/", {"resend": "1"})
    outbox = sent()
    assert [m.to for m in outbox] == [["dora@bakery.example"]] * 2
    assert Client().get(link_in(outbox[1])).status_code == 200
    dora.refresh_from_db()
    assert dora.email_verified


def test_a_link_to_an_address_since_changed_is_refused() -> None:
    client = signup("dora@example.com")
    [first] = sent()
    client.post("/accounts/settings/email/", {"email": "dora@bakery.example"})
    page = Client().get(link_in(first))
    assert page.status_code == 400
    assert "no longer has" in page.content.decode()
    assert not User.objects.get(username="dora").email_verified


def test_removing_the_address_and_giving_one_another_account_verified(
    make_user: Callable[[str], User],
) -> None:
    verified("alice", "alice@example.com", make_user)
    dora = verified("dora", "dora@example.com", make_user)
    client = client_for(dora)
    taken = client.post("/accounts/settings/email/", {"email": "Alice@Example.com"})
    assert taken.status_code == 302  # answered as any address; only its mailbox is told
    dora.refresh_from_db()
    assert (dora.email, dora.email_verified) == ("Alice@example.com", False)
    [told] = sent()
    assert "already belongs to your account" in told.body
    assert client.post("/accounts/settings/email/", {"email": ""}).status_code == 302
    dora.refresh_from_db()
    assert (dora.email, dora.email_verified) == ("", False)


def ask_reset(email: str, client: Client | None = None) -> str:
    """Ask for a reset link; the text of the page it answers with."""
    client = client or Client()
    response = client.post("/accounts/password/reset/", {"email": email})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/sent/"
    page = client.get(response["Location"])
    text = page.content.decode()
    assert NEUTRAL in text
    # The whole page, but for its fresh CSRF tokens (the headers', the language picker's form).
    text = re.sub(r'"X-CSRFToken": "\w+"', "", text)
    return re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", text)


def test_login_page_links_to_the_reset() -> None:
    page = Client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/password/reset/"' in page
    assert "Forgot your password?" in page


def test_a_reset_link_sets_a_new_password_and_works_once(
    make_user: Callable[[str], User],
) -> None:
    verified("dora", "dora@example.com", make_user)
    ask_reset("DORA@example.com")
    [message] = sent()
    assert message.to == ["dora@example.com"]
    path = link_in(message)
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
    page = Client().get(link_in(sent()[0]), follow=True)
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
    assert sent() == []
    known = ask_reset("alice@example.com")
    assert len(sent()) == 1
    assert unknown == unverified == known


def test_resets_are_limited_per_address_with_the_same_answer(
    make_user: Callable[[str], User],
) -> None:
    verified("dora", "dora@example.com", make_user)
    pages = {ask_reset("dora@example.com", Client(REMOTE_ADDR=f"10.0.0.{i}")) for i in range(5)}
    assert len(sent()) == 3  # three an hour for one address, whoever asks
    assert len(pages) == 1


def test_resets_are_limited_per_client_with_the_same_answer(
    make_user: Callable[[str], User],
) -> None:
    for name in "abcdefg":
        verified(f"baker{name}", f"{name}@example.com", make_user)
    client = Client(REMOTE_ADDR="10.0.0.9")
    pages = {ask_reset(f"{name}@example.com", client) for name in "abcdefg"}
    assert len(sent()) == 5  # five an hour from one client
    assert len(pages) == 1
    # Another client may still ask for the addresses the first one's excess did not use up.
    ask_reset("f@example.com", Client(REMOTE_ADDR="10.0.0.10"))
    assert len(sent()) == 6


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


# --- issue 38: the mails leave the request; sign-ups and links per address are limited ---------


def what_a_reset_request_does(email: str, client_address: str) -> dict[str, object]:
    """A reset request's own work: the SQL it ran (statements, not their values), the mails it
    sent itself, and its answer."""
    statements: list[str] = []

    def note(execute: Callable[..., object], sql: str, *rest: object) -> object:
        statements.append(sql)
        return execute(sql, *rest)

    before = len(mail.outbox)
    with connection.execute_wrapper(note):
        answer = Client(REMOTE_ADDR=client_address).post(
            "/accounts/password/reset/", {"email": email}
        )
    return {
        "answer": (answer.status_code, answer["Location"]),
        "statements": statements,
        "mailed": mail.outbox[before:],
    }


def queued_resets() -> list[list[object]]:
    """The reset tasks queued so far, oldest first: each one's arguments."""
    from django_tasks_db.models import DBTaskResult

    rows = DBTaskResult.objects.filter(task_path="accounts.emails.mail_reset_link")
    return [row.args_kwargs["args"] for row in rows.order_by("enqueued_at")]


def test_a_reset_request_does_the_same_work_for_a_verified_an_unverified_and_an_unknown_address(
    make_user: Callable[[str], User],
) -> None:
    verified("alice", "alice@example.com", make_user)
    dora = make_user("dora")
    dora.email = "dora@example.com"  # given but never verified
    dora.save()
    addresses = ["alice@example.com", "dora@example.com", "nobody@example.com"]
    # Each from its own client, so the limits' counts are alike too.
    work = [what_a_reset_request_does(a, f"10.0.1.{i}") for i, a in enumerate(addresses)]
    assert [w["mailed"] for w in work] == [[], [], []]  # no mail goes out in the request
    assert work[0] == work[1] == work[2]
    assert work[0]["statements"], "the request queues its task in the database"
    # One task each, carrying the account found (or none) and the address's digest, never the
    # address: the task rows keep nothing the person typed.
    alice = User.objects.get(username="alice")
    accounts = [alice.pk, None, None]
    assert queued_resets() == [
        [account, emails.mailed_to(a), "testserver", False]
        for account, a in zip(accounts, addresses, strict=True)
    ]


def test_a_reset_task_keeps_no_address_typed(make_user: Callable[[str], User]) -> None:
    from django_tasks_db.models import DBTaskResult

    verified("alice", "alice@example.com", make_user)
    for address in ("Alice@Example.com", "nobody@example.com"):
        ask_reset(address)
    sent()  # the worker ran them
    rows = DBTaskResult.objects.filter(task_path="accounts.emails.mail_reset_link")
    assert rows.count() == 2
    for row in rows:
        stored = json.dumps([row.args_kwargs, row.return_value, row.traceback]).lower()
        assert "example.com" not in stored and "alice@" not in stored


def test_a_reset_queued_by_the_code_before_is_still_mailed(
    make_user: Callable[[str], User],
) -> None:
    verified("alice", "alice@example.com", make_user)
    emails.mail_password_reset.enqueue("alice@example.com", "testserver", False)
    [message] = sent()
    assert message.to == ["alice@example.com"]


def test_a_reset_asked_before_the_address_changed_mails_nobody(
    make_user: Callable[[str], User],
) -> None:
    alice = verified("alice", "alice@example.com", make_user)
    ask_reset("alice@example.com")
    User.objects.filter(pk=alice.pk).update(email="alice@elsewhere.example")
    assert sent() == []


def test_the_reset_mail_goes_out_from_the_worker_to_a_verified_address_only(
    make_user: Callable[[str], User],
) -> None:
    verified("alice", "alice@example.com", make_user)
    dora = make_user("dora")
    dora.email = "dora@example.com"
    dora.save()
    for address in ("nobody@example.com", "dora@example.com", "alice@example.com"):
        ask_reset(address)
    assert mail.outbox == []  # nothing left with the requests
    [message] = sent()
    assert message.to == ["alice@example.com"]
    assert "/accounts/password/reset/" in link_in(message)
    assert sent() == [message]  # each task runs once


def test_signups_from_one_client_are_limited_in_words(settings: object) -> None:
    allowed = settings.SIGNUPS_PER_CLIENT  # type: ignore[attr-defined]
    client_address = "10.0.2.1"
    for n in range(allowed):
        Client(REMOTE_ADDR=client_address).post(
            "/accounts/signup/",
            {"username": f"baker{n}", "password1": PASSWORD, "password2": PASSWORD},
        )
    assert User.objects.filter(username__startswith="baker").count() == allowed
    refused = Client(REMOTE_ADDR=client_address).post(
        "/accounts/signup/",
        {
            "username": "one-more",
            "email": "x@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert refused.status_code == 429
    assert "Too many accounts were made from your network" in refused.content.decode()
    assert not User.objects.filter(username="one-more").exists()
    assert sent() == []
    other = Client(REMOTE_ADDR="10.0.2.2").post(
        "/accounts/signup/",
        {"username": "one-more", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert other.status_code == 302


def test_verification_mails_to_one_address_are_limited_whoever_asks(
    make_user: Callable[[str], User],
) -> None:
    stranger = "stranger@example.com"
    for n in range(3):
        Client(REMOTE_ADDR=f"10.0.3.{n}").post(
            "/accounts/signup/",
            {
                "username": f"baker{n}",
                "email": stranger,
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
    assert User.objects.filter(email=stranger).count() == 3
    refused = Client(REMOTE_ADDR="10.0.3.9").post(
        "/accounts/signup/",
        {
            "username": "baker9",
            "email": "Stranger@EXAMPLE.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert refused.status_code == 429
    assert "This address has been sent as many links" in refused.content.decode()
    assert not User.objects.filter(username="baker9").exists()
    # An account changing its address to it is refused the link too (the address is saved).
    dora = client_for(make_user("dora"))
    dora.post("/accounts/settings/email/", {"email": stranger})
    assert "No link was sent" in dora.get("/accounts/settings/").content.decode()
    assert [m.to for m in sent()] == [[stranger]] * 3


class RefusingMailServer(BaseEmailBackend):
    """A mail server that refuses every connection."""

    def send_messages(self, email_messages: object) -> int:
        raise ConnectionRefusedError("the mail server is down")


def test_a_mail_the_server_refuses_is_logged_and_shown_to_superusers(
    settings: object, caplog: pytest.LogCaptureFixture
) -> None:
    signup("dora@example.com")
    settings.EMAIL_BACKEND = f"{__name__}.RefusingMailServer"  # type: ignore[attr-defined]
    with caplog.at_level(logging.ERROR):
        assert sent() == []
    assert "Could not send the verification mail to account" in caplog.text
    from django_tasks_db.models import DBTaskResult

    [result] = DBTaskResult.objects.all()
    assert result.status == "FAILED" and "ConnectionRefusedError" in result.traceback
    results = "/admin/django_tasks_database/dbtaskresult/"
    boss = User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    page = client_for(boss).get(results)
    assert page.status_code == 200
    assert "mail_verification" in page.content.decode() and "Failed" in page.content.decode()


def test_finished_task_results_are_pruned_at_most_once_an_hour(
    make_user: Callable[[str], User], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django_tasks_db.models import DBTaskResult

    ask_reset("a@example.com")
    ask_reset("b@example.com")
    sent()
    old = timezone.now() - timedelta(days=task_worker.KEEP_DAYS, hours=1)
    a_digest, b_digest = emails.mailed_to("a@example.com"), emails.mailed_to("b@example.com")
    DBTaskResult.objects.filter(args_kwargs__args__1=a_digest).update(finished_at=old)
    monkeypatch.setattr(task_worker, "last_pruned", None)
    task_worker.prune_now_and_then(1000.0)
    assert queued_resets() == [[None, b_digest, "testserver", False]]
    DBTaskResult.objects.update(finished_at=old)
    task_worker.prune_now_and_then(1000.0 + task_worker.PRUNE_EVERY - 1)
    assert len(queued_resets()) == 1  # not again within the hour
    task_worker.prune_now_and_then(1000.0 + task_worker.PRUNE_EVERY)
    assert queued_resets() == []


def test_signup_says_what_the_address_is_for() -> None:
    page = Client().get("/accounts/signup/").content.decode()
    assert "Only to reset a forgotten password" not in page
    assert "forget your password" in page and "notifications" in page


@pytest.mark.parametrize("url", ["file:///tmp/bakehouse-mail", "file:////tmp/bakehouse-mail"])
def test_a_mail_folder_url_names_an_absolute_folder_with_three_or_four_slashes(url: str) -> None:
    conf = email_settings(url)
    assert conf["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert conf["EMAIL_FILE_PATH"] == "/tmp/bakehouse-mail"
