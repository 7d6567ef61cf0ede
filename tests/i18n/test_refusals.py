"""Refusals reach the person in their language: the engines' sentences (told from their shapes,
games/kinds/refusals.py) and the services' (said in the language active), on a posted page, on
the table's socket and in the API's JSON (by Accept-Language)."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext, ngettext

from accounts import tokens
from accounts.models import User
from games.api.tests.conftest import Api
from games.engines import IllegalAction
from games.engines import cakehalla as ch
from games.engines import midnight_bakery as mb
from games.engines.cakehalla.cards import CARDS, CUSTOMERS
from games.engines.cakehalla.refusals import SAYINGS as CH_SAYINGS
from games.engines.cakehalla.refusals import refused as ch_refused
from games.engines.midnight_bakery.refusals import SAYINGS as MB_SAYINGS
from games.kinds.refusals import REFUSALS, told
from games.models import Action, Game
from tests.conftest import client_for
from tests.live.test_socket_moves import keep_fields, message_of, send_move
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at
from tests.support.sockets import open_board, socket
from tests.web.test_posted_moves import LIVE

INGREDIENTS = ["sugar", "blueberry", "matcha", "cherry", "cocoa", "saffron", "lard"]


def cakehalla_tries(rng: random.Random) -> list[Any]:
    """Actions of every shape, most of them wrong somehow."""
    cards = [c.id for c in CARDS]
    return [
        {"type": "take", "ingredients": rng.sample(INGREDIENTS, rng.randint(1, 3))},
        {"type": "take", "ingredients": [rng.choice(INGREDIENTS)] * 2},
        {"type": "take", "ingredients": "sugar"},
        {"type": "reserve", "card": rng.choice(cards)},
        {"type": "reserve", "tier": rng.randint(0, 4)},
        {"type": "reserve", "card": rng.choice(cards), "tier": 1},
        {"type": "buy", "card": rng.choice(cards)},
        {"type": "buy", "card": "no-such-card"},
        {"type": "buy"},
        {"type": "return", "ingredients": {rng.choice(INGREDIENTS): rng.randint(-1, 4)}},
        {"type": "return", "ingredients": []},
        {"type": "customer", "customer": rng.choice([c.id for c in CUSTOMERS] + ["nobody"])},
        {"type": "customer"},
        {"type": "pass"},
        {"type": "pass", "why": "tired"},
        {"type": "dance"},
        {},
        "take",
    ]


def midnight_tries(rng: random.Random, state: mb.State, seat: int) -> list[Any]:
    batch = mb.view(state, seat)["batch"]
    ids = [c["id"] for c in batch] + ["c999"]
    return [
        {"type": "keep", "card": rng.choice(ids)},
        {"type": "keep"},
        {"type": "peel", "cards": rng.sample(ids, min(2, len(ids)))},
        {"type": "peel", "cards": [ids[0], ids[0]]},
        {"type": "peel", "cards": ids[:1]},
        {"type": "bake"},
        [],
    ]


def refusals_met(game: str, seed: int) -> dict[str, IllegalAction]:
    """Every sentence the engine refused with over a whole random game of tries (one refusal
    of each)."""
    rng = random.Random(seed)
    met: dict[str, IllegalAction] = {}
    engine: Any = ch if game == "cakehalla" else mb
    state = engine.new_game(2 + seed % 3, seed=seed)
    while not engine.is_over(state):
        seats = engine.active_seats(state)
        for seat in range(2 + seed % 3):
            tries = (
                cakehalla_tries(rng) if game == "cakehalla" else midnight_tries(rng, state, seat)
            )
            for action in tries:
                try:
                    engine.apply_action(state, seat, action)
                except IllegalAction as refused:
                    met[str(refused)] = refused
        seat = rng.choice(seats)
        state = engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))
    for action in cakehalla_tries(rng)[:3] if game == "cakehalla" else [{"type": "keep"}]:
        try:
            engine.apply_action(state, 0, action)
        except IllegalAction as refused:
            met[str(refused)] = refused
    return met


@pytest.mark.parametrize(("game", "at_least"), [("cakehalla", 25), ("midnight-bakery", 8)])
def test_every_refusal_an_engine_makes_is_told_in_french_and_german(
    game: str, at_least: int
) -> None:
    met = {k: v for seed in range(3) for k, v in refusals_met(game, seed).items()}
    assert len(met) >= at_least, sorted(met)
    with translation.override("en"):
        assert {told(refused) for refused in met.values()} == set(met)
    for language in ("fr", "de"):
        with translation.override(language):
            untold = [sentence for sentence, refused in met.items() if told(refused) == sentence]
        assert untold == [], (language, untold)


def test_a_refusals_values_stay_and_its_plural_follows_the_count() -> None:
    with translation.override("fr"):
        assert told(ch_refused("market-out-of", name="Cocoa")) == (
            "Le march\u00e9 n\u2019a plus de Cocoa."
        )
        assert told(ch_refused("kinds-left", kinds=1)).startswith("Il ne reste que 1 sorte :")
        assert told(ch_refused("kinds-left", kinds=2)).startswith("Il ne reste que 2 sortes :")
    with translation.override("de"):
        assert told(ch_refused("cannot-afford", card="Cherry Tart")) == (
            "Die Karte Cherry Tart kannst du dir nicht leisten."
        )
        assert told(IllegalAction("A sentence nobody listed.")) == "A sentence nobody listed."
        assert told(IllegalAction("Ein Satz.", "no-such-code")) == "Ein Satz."


ENGINES = {"cakehalla": CH_SAYINGS, "midnight-bakery": MB_SAYINGS}


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_code_an_engine_can_raise_is_told_word_for_word_and_in_french_and_german(
    game: str,
) -> None:
    """The engine's English for each code is the msgid (or the plural) it is translated from,
    and each has its translation in fr and de: a sentence changed in an engine, or a new code,
    fails here instead of falling back to English on a page."""
    for code, english in ENGINES[game].items():
        assert code in REFUSALS, code
        refusal = REFUSALS[code]
        assert english in (refusal.words, refusal.plural), (code, english, refusal)
        for language in ("fr", "de"):
            with translation.override(language):
                if refusal.plural:
                    forms = {ngettext(refusal.words, refusal.plural, n) for n in (1, 2)}
                else:
                    forms = {gettext(refusal.words)}
            assert not forms & {refusal.words, refusal.plural, ""}, (language, code, forms)


def test_an_engines_refusal_carries_its_code_and_values_and_its_english_as_before() -> None:
    state = ch.new_game(2, seed=4)
    with pytest.raises(IllegalAction) as refused:
        ch.apply_action(state, 1, {"type": "pass"})
    assert (refused.value.code, refused.value.params) == ("not-your-turn", {})
    with pytest.raises(IllegalAction) as refused:
        ch.apply_action(state, 0, {"type": "dance"})
    assert str(refused.value) == "There is no action called 'dance'."
    assert (refused.value.code, refused.value.params) == ("no-such-action", {"kind": "'dance'"})
    with pytest.raises(IllegalAction) as refused:
        mb.new_game(2, seed=1, setup={"deck": ["lard"]})
    assert refused.value.code == "no-such-face"
    with translation.override("de"):
        assert "Midnight Bakery" in told(refused.value) and "There is" not in told(refused.value)
    assert pickle.loads(pickle.dumps(refused.value)).params == {"face": "'lard'"}


def speaks(user: User, code: str) -> None:
    user.language = code
    user.save(update_fields=["language"])


@pytest.mark.django_db
def test_a_stale_move_posted_is_refused_in_the_persons_language(
    running_game: Game, player: User
) -> None:
    speaks(player, "fr")
    fields = keep_fields(running_game, player, version=running_game.version - 1)
    fields["moment"] = "an older pick"
    response = client_for(player).post(f"/games/{running_game.pk}/play/", fields, headers=LIVE)
    assert response.status_code == 409
    body = response.content.decode()
    assert "La table a avancé pendant que vous choisissiez" in body
    assert "The table moved on" not in body
    assert not Action.objects.filter(game=running_game).exists()


@pytest.mark.django_db
def test_an_engines_refusal_posted_is_said_in_the_persons_language(
    player: User, rival: User
) -> None:
    game = two_baker_table(player, rival)
    waiting = user_at(game, 1 - state_of(game).turn)
    speaks(waiting, "de")
    action = json.dumps({"type": "take", "ingredients": ["sugar", "cocoa", "cherry"]})
    fields = {"action": action, "version": str(game.version)}
    response = client_for(waiting).post(f"/games/{game.pk}/play/", fields, headers=LIVE)
    assert response.status_code == 400
    body = response.content.decode()
    assert "Du bist nicht am Zug." in body and "It is not your turn." not in body


@pytest.mark.django_db(transaction=True)
async def test_a_garbled_move_on_the_socket_is_refused_in_the_persons_language(
    running_game: Game, player: User
) -> None:
    await database_sync_to_async(speaks)(player, "de")
    ws = await socket(running_game, player)
    await open_board(ws)
    answer = await send_move(ws, {"action": "[1, 2]", "version": str(running_game.version)})
    assert message_of(answer) == "Das ist keine Aktion."
    card = {"action": '{"type": "keep", "card": "c999"}', "version": str(running_game.version)}
    assert message_of(await send_move(ws, card)) == "Diese Karte liegt nicht auf deinem Blech."
    await ws.disconnect()


@pytest.mark.django_db
def test_the_apis_refusals_follow_accept_language(
    player: User, rival: User, bots_inline: None
) -> None:
    game = two_baker_table(player, rival)
    mover = user_at(game, state_of(game).turn)
    api = Api(tokens.make(mover.pk, "test", list(tokens.SCOPES), None).token)
    saffron = {"action": {"type": "take", "ingredients": ["saffron"]}, "version": game.version}
    german = api.post(f"/games/{game.pk}/move", saffron, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 400
    said = "Saffron kann man nicht nehmen; er kommt nur mit einer Reservierung."
    assert german.json()["error"] == said
    french = api.post(f"/games/{game.pk}/move", raw="{not json", HTTP_ACCEPT_LANGUAGE="fr")
    said = "Le corps de la requête n\u2019est pas le JSON que cette opération attend."
    assert french.json()["error"] == said
    english = api.post(f"/games/{game.pk}/move", saffron)
    assert english.json()["error"] == "Saffron cannot be taken; it comes only with a reservation."
    assert not Action.objects.filter(game=game).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Cette table a déjà commencé."), ("de", "An diesem Tisch wird schon gespielt.")],
)
def test_a_services_refusal_on_a_plain_page_is_in_the_persons_language(
    running_game: Game, outsider: User, language: str, words: str
) -> None:
    speaks(outsider, language)
    before = running_game.seats.count()
    response = client_for(outsider).post(f"/games/{running_game.pk}/join/")
    body = response.content.decode()
    assert words in body and "This table has already started." not in body
    assert running_game.seats.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "away", "refused"),
    [
        ("fr", "Reconnexion… la table", "Cela a été refusé ({status})."),
        ("de", "Neue Verbindung wird aufgebaut…", "Das wurde abgelehnt ({status})."),
    ],
)
def test_the_table_scripts_words_come_in_the_persons_language(
    running_game: Game, player: User, language: str, away: str, refused: str
) -> None:
    """live.js reads its words from the page (#live-words), falling back to English."""
    speaks(player, language)
    page = client_for(player).get(running_game.get_absolute_url()).content.decode()
    words = page[page.index('<template id="live-words">') :]
    words = words[: words.index("</template>")]
    assert away in words and refused in words
    assert "Reconnecting" not in words and "That was refused" not in words
