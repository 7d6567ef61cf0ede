"""Sign-ups of look-alike names at the same instant, each on its own connection (PostgreSQL):
one account is made, and every other person is told in a sentence, with nothing made."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from tests.conftest import needs_env

pytestmark = [needs_env("DATABASE_URL"), pytest.mark.django_db(transaction=True)]

NAMES = [
    "demo_brioche",
    "demo_bri0che",
    "demo_brioche_",
    "Demo.Brioche",
    "dem0-bri0che",
    "demobrioche",
]
PASSWORD = "crusty-loaf-1987"


def test_look_alike_sign_ups_at_the_same_instant_make_one_account() -> None:
    barrier = threading.Barrier(len(NAMES))
    answers: dict[str, tuple[int, str]] = {}
    failed: list[BaseException] = []

    def one(i: int, name: str) -> None:
        try:
            client = Client(REMOTE_ADDR=f"10.0.9.{i + 1}")
            form = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
            barrier.wait()
            response = client.post("/accounts/signup/", form)
            answers[name] = (response.status_code, response.content.decode())
        except BaseException as error:  # reported by the test, not lost in the thread
            failed.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i, n)) for i, n in enumerate(NAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, failed
    accounts = list(User.objects.values_list("username", flat=True))
    assert len(accounts) == 1, f"look-alikes made at once: {accounts}"
    made = accounts[0]
    assert answers[made][0] == 302
    for name, (status, page) in answers.items():
        if name != made:
            assert status == 200, name
            assert f"That name looks too much like “{made}”, a name already taken." in page
