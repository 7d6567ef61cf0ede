"""A tournament page's sockets each in their person's language: a French and a German person
watching one tournament each hear the live part, their line and the chat in their own words,
a visitor in the browser's; the live part is still rendered once per version and language, never
handed from one language's reader to another's."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from bakery_site.asgi import application
from games.tournaments import services, shared
from games.tournaments.models import Tournament
from games.tournaments.tests.conftest import entered, rules
from games.tournaments.tests.test_live import (
    Crowd,
    live_part_at_least,
    opened,
    page_socket,
    stored_version,
)
from tests.support.clock import Clock
from tests.support.sockets import Communicator

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "fr": (
        "Classement",
        "Vous êtes inscrit, parmi 2 inscrits jusqu\u2019ici.",
        "2 inscrits jusqu\u2019ici.",
    ),
    "de": ("Tabelle", "Du bist dabei, bisher einer von 2 Teilnehmern.", "Bisher 2 dabei."),
    "en": ("Standings", "You are in, one of 2 entrants so far.", "2 in so far."),
}
"""Per language: the standings' heading, the person's own line and the count of entrants."""


def speaking(user: User, language: str) -> User:
    user.language = language
    user.save(update_fields=["language"])
    return user


def visitor(tournament: Tournament, accept_language: bytes) -> Any:
    """The page's socket of someone not logged in, their browser asking for a language."""
    path = f"/ws/tournaments/{tournament.pk}/"
    headers = [(b"origin", b"http://testserver"), (b"accept-language", accept_language)]
    return Communicator(application, path, headers=headers)


async def test_a_french_and_a_german_person_each_hear_their_own_words(
    clock: Clock, crowd: Crowd
) -> None:
    people = await database_sync_to_async(crowd)(3)
    french = await database_sync_to_async(speaking)(people[0], "fr")
    german = await database_sync_to_async(speaking)(people[1], "de")
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock)), [french, german])
    )()
    sockets = {
        "fr": await page_socket(tournament, french),
        "de": await page_socket(tournament, german),
    }
    sockets["en"] = visitor(tournament, b"en-GB,en;q=0.9")
    for language, ws in sockets.items():
        first = await opened(ws)
        heading, line, count = WORDS[language]
        assert f"<h2>{heading}</h2>" in first and count in first
        if language != "en":
            assert line in first
        for other in WORDS.keys() - {language}:
            assert f"<h2>{WORDS[other][0]}</h2>" not in first

    shared.render_counts.clear()
    await database_sync_to_async(services.join)(tournament, people[2])
    version = await database_sync_to_async(stored_version)(tournament)
    for language, ws in sockets.items():
        pushed = await live_part_at_least(ws, version)
        heading = WORDS[language][0]
        assert f"<h2>{heading}</h2>" in pushed
        for other in WORDS.keys() - {language}:
            assert f"<h2>{WORDS[other][0]}</h2>" not in pushed
    # One render a language, none handed across: three readers, three languages.
    assert shared.render_counts["rendered"] == 3 and shared.render_counts["shared"] == 0
    for ws in sockets.values():
        await ws.disconnect()


async def test_readers_of_one_language_still_share_one_render(clock: Clock, crowd: Crowd) -> None:
    people = await database_sync_to_async(crowd)(3)
    for person in people:
        await database_sync_to_async(speaking)(person, "de")
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock)), people[:2])
    )()
    sockets = [await page_socket(tournament, person) for person in people[:2]]
    sockets.append(visitor(tournament, b"de-AT,de;q=0.9"))
    for ws in sockets:
        await opened(ws)
    shared.render_counts.clear()
    await database_sync_to_async(services.join)(tournament, people[2])
    version = await database_sync_to_async(stored_version)(tournament)
    for ws in sockets:
        assert "Bisher 3 dabei." in await live_part_at_least(ws, version)
    assert shared.render_counts["rendered"] == 1 and shared.render_counts["shared"] == 2
    for ws in sockets:
        await ws.disconnect()
