"""The site's scripts say their words in the page's language: each page that loads them carries
one <template id="script-words"> (templates/_script_words.html) that static/js/words.js reads by
key, each script keeping its English as the fallback (clock.js, socket.js, chat.js, pairing.js,
tournament.js, invite.js, push.js, Cakehalla's board.js)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from tests.conftest import client_for

SCRIPTS = [
    "js/clock.js",
    "js/socket.js",
    "js/chat.js",
    "js/pairing.js",
    "js/tournament.js",
    "js/invite.js",
    "js/push.js",
]
STATIC = Path(settings.BASE_DIR) / "static"
ASKED = re.compile(r"""(?:\bword|bakehouseWord)\("([a-z0-9-]+)",""")
# socket.js asks for a final close by its code and, where the English names the page, by what the
# page is (the pages' `what`: live.js, pairing.js, tournament.js, review.js).
CLOSES = [
    f"close-{code}-{what}"
    for code in (4403, 4404, 4408)
    for what in ("table", "search", "tournament", "review", "page")
] + [f"close-{code}" for code in (4401, 4402, 4409, 4429)]


def held_words(page: str) -> dict[str, str]:
    """The page's script words by key."""
    start = page.index('<template id="script-words">')
    held = page[start : page.index("</template>", start)]
    return dict(re.findall(r'<span data-word="([a-z0-9-]+)">([^<]*)</span>', held))


def asked_keys() -> set[str]:
    """Every key the scripts ask words.js for by name."""
    files = [STATIC / name for name in SCRIPTS] + [STATIC / "cakehalla" / "board.js"]
    return {key for f in files for key in ASKED.findall(f.read_text())}


def tournaments_page(language: str) -> str:
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("tournaments:list")).content.decode()


@pytest.mark.django_db
def test_every_word_a_script_asks_for_is_on_the_page(running_game: Game, player: User) -> None:
    table = client_for(player).get(running_game.get_absolute_url()).content.decode()
    held = held_words(table)
    assert held == held_words(tournaments_page("en"))
    asked = asked_keys()
    assert {"clock-up", "return-more", "chat-refused", "search-closed"} <= asked
    assert asked | set(CLOSES) <= set(held)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            {
                "clock-up": "Zeit abgelaufen",
                "clock-left": "noch {span}",
                "return-more": "Wähle noch {n}.",
            },
        ),
        (
            "fr",
            {
                "clock-up": "temps écoulé",
                "clock-left": "encore {span}",
                "close-4404-table": "Cette table ne vous est plus accessible.",
            },
        ),
    ],
)
def test_the_scripts_words_come_in_the_pages_language(language: str, said: dict[str, str]) -> None:
    held = held_words(tournaments_page(language))
    assert {key: held[key] for key in said} == said
    english = held_words(tournaments_page("en"))
    same = {key for key, words in held.items() if words == english[key]}
    assert not same


@pytest.mark.django_db
def test_a_page_without_those_scripts_goes_without_their_words() -> None:
    page = Client().get(reverse("leaderboards")).content.decode()
    assert page.count('id="script-words"') == 0 and "js/words.js" in page
