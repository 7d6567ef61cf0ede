"""Mails and pushes in the recipient's saved language, whoever's request or thread makes them."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone, translation

from accounts import emails
from accounts.models import User
from games.notifications import push
from games.notifications.mail import sweep_mail
from games.notifications.models import Notification
from games.notifications.services import Told, tell_each, tell_friend


@pytest.fixture(autouse=True)
def _mail_to_outbox(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "http://testserver"


def person(make_user: Callable[[str], User], name: str, language: str) -> User:
    user = make_user(name)
    user.email, user.language = f"{name}@example.com", language
    user.save()
    return user


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "subject", "words"),
    [
        ("fr", "Vérifiez votre adresse électronique sur Bakehouse", "Suivez ce lien"),
        ("de", "Bestätige deine E-Mail-Adresse bei Bakehouse", "Folge diesem Link"),
        ("en", "Verify your email address at Bakehouse", "Follow this link"),
    ],
)
def test_the_verification_mail_is_in_the_recipients_language(
    make_user: Callable[[str], User], language: str, subject: str, words: str
) -> None:
    user = person(make_user, "dora", language)
    with translation.override("en"):  # whatever the sender's language
        assert emails.mail_verification.call(user.pk, user.email, "http://testserver/")
    (message,) = mail.outbox
    assert message.subject == subject
    assert words in str(message.body)


@pytest.mark.django_db
def test_notifications_are_told_mailed_and_pushed_in_each_persons_language(
    make_user: Callable[[str], User],
) -> None:
    french = person(make_user, "amelie", "fr")
    german = person(make_user, "bertha", "de")
    for user in (french, german):
        user.email_verified, user.mail_friend = True, True
        user.save()
    carla = make_user("carla")
    with translation.override("en"):  # whatever the asker's language
        for user in (french, german):
            tell_friend("asked", carla.pk, user.pk, request=user.pk)
    texts = {row.recipient_id: row.text for row in Notification.objects.all()}
    assert texts == {
        french.pk: "carla demande à être votre ami.",
        german.pk: "carla möchte dein Freund sein.",
    }
    assert sweep_mail(timezone.now() + timedelta(hours=1)) == 2
    subjects = sorted(message.subject for message in mail.outbox)
    assert subjects == [
        "Bakehouse : carla demande à être votre ami.",
        "Bakehouse: carla möchte dein Freund sein.",
    ]
    french_mail = next(m for m in mail.outbox if m.to == [french.email])
    assert "Pour arrêter ces courriels" in str(french_mail.body)


@pytest.mark.django_db
def test_a_push_of_several_notifications_counts_them_in_the_persons_language(
    make_user: Callable[[str], User],
) -> None:
    german = person(make_user, "bertha", "de")
    tell_each("friend", [Told(german.pk, f"friend:{n}", f"line {n}") for n in range(3)])
    with translation.override("fr"):
        payload = push.claim(german.pk, timezone.now())
    assert payload is not None
    assert json.loads(payload)["body"] == "3 Neuigkeiten an deinen Tischen."


@pytest.mark.django_db
def test_the_password_reset_mail_is_in_the_recipients_language(
    make_user: Callable[[str], User],
) -> None:
    user = person(make_user, "dora", "fr")
    user.email_verified = True
    user.save()
    with translation.override("de"):  # whoever asked, in whatever language
        emails.send_reset_link(user.email, "testserver", use_https=False)
    (message,) = mail.outbox
    assert message.subject == "Réinitialiser votre mot de passe Bakehouse"
    assert "Suivez ce lien pour en choisir un nouveau" in str(message.body)
