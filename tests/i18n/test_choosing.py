"""Choosing a language: the browser's on a first visit, the menu's picker (a plain form to
Django's set_language), and an account's saved choice, which follows the person to any browser."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import client_for

PASSWORD = "crusty-loaf-1987"


def lang_of(page: str) -> str:
    """The language the page says it is in (<html lang>)."""
    return page.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accepted", "language", "words"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.5", "fr", "Se connecter"),
        ("de-AT,de;q=0.8", "de", "Anmelden"),
        ("es-ES,es;q=0.9", "en", "Log in"),  # a language not offered: English
    ],
)
def test_a_first_visit_speaks_the_browsers_language(
    accepted: str, language: str, words: str
) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE=accepted).get("/accounts/login/").content.decode()
    assert lang_of(page) == language
    assert f">{words}</h1>" in page


@pytest.mark.django_db
def test_the_menu_offers_each_language_as_a_plain_form_to_set_language() -> None:
    page = Client().get("/").content.decode()
    picker = page.split('class="language-menu"', 1)[1].split("</details>", 1)[0]
    assert 'method="post" action="/accounts/language/"' in picker
    assert 'name="csrfmiddlewaretoken"' in picker
    for code, name in (("en", "English"), ("fr", "Français"), ("de", "Deutsch")):
        assert f'name="language" value="{code}" lang="{code}"' in picker
        assert f">{name}</button>" in picker


@pytest.mark.django_db
def test_the_picker_sets_the_language_and_goes_back_to_the_page() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    answer = client.post(
        "/accounts/language/", {"language": "de"}, HTTP_REFERER="http://testserver/leaderboards/"
    )
    assert answer.status_code == 302 and answer["Location"] == "http://testserver/leaderboards/"
    page = client.get("/leaderboards/").content.decode()
    assert lang_of(page) == "de" and "<h1>Bestenlisten</h1>" in page


@pytest.mark.django_db
def test_a_language_not_offered_changes_nothing(make_user: Callable[[str], User]) -> None:
    person = make_user("alice")
    client = client_for(person)
    client.post("/accounts/language/", {"language": "xx"})
    person.refresh_from_db()
    assert person.language == "en"
    assert lang_of(client.get("/").content.decode()) == "en"


@pytest.mark.django_db
def test_a_persons_choice_is_saved_and_follows_them_to_another_browser(
    make_user: Callable[[str], User],
) -> None:
    person = make_user("alice")
    client_for(person).post("/accounts/language/", {"language": "fr"})
    person.refresh_from_db()
    assert person.language == "fr"
    # Another browser, speaking German, logs in: the account's French from then on.
    other = Client(HTTP_ACCEPT_LANGUAGE="de")
    assert lang_of(other.get("/accounts/login/").content.decode()) == "de"
    person.set_password(PASSWORD)
    person.save()
    other.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    page = other.get("/accounts/settings/").content.decode()
    assert lang_of(page) == "fr" and "<h1>Vos réglages</h1>" in page
    # Logged out, that browser keeps the account's language.
    other.post("/accounts/logout/")
    assert lang_of(other.get("/accounts/login/").content.decode()) == "fr"


@pytest.mark.django_db
def test_a_sign_up_keeps_the_language_it_was_made_in() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="de-DE")
    client.post(
        "/accounts/signup/",
        {"username": "dora", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert User.objects.get(username="dora").language == "de"
