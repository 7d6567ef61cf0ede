"""Cakehalla's words made in Python (games/kinds/cakehalla: the kitchen log, the hints, the final
standings' why, what a token looks like): told from the engine's codes in the reader's language,
the game's names (cards, customers, seats, ingredients) as they are in every language."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.engines import cakehalla as ch
from games.engines.cakehalla.cards import CARDS, CUSTOMERS, TOKEN_NAMES
from games.kinds.cakehalla.hints import advise
from games.kinds.cakehalla.log import event_text
from games.kinds.cakehalla.standings import standings
from games.kinds.cakehalla.words import SHAPES, shape

NAMES = ["Rye", "Spelt", "Oat", "Barley"]
GAME_NAMES = {
    *NAMES,
    *(c.name for c in CARDS),
    *(c.name for c in CUSTOMERS),
    *(n.capitalize() for n in TOKEN_NAMES),
}
"""The game's own names, alike in every language."""


def whole_game(bakers: int, seed: int) -> tuple[ch.View, list[str]]:
    """A whole game of random legal moves, seen by nobody in particular; and each move's advice
    in the language active, as the seat to move would read it."""
    rng = random.Random(seed)
    state = ch.new_game(bakers, seed=seed)
    advice: list[str] = []
    while not ch.is_over(state):
        seat = ch.active_seats(state)[0]
        legal = ch.legal_actions(state, seat)
        action = rng.choice(legal)
        advice.extend(advise(ch.view(state, seat), action))
        state = ch.apply_action(state, seat, action)
    return ch.view(state, None), advice


def english_left(sentence: str) -> bool:
    """Whether a sentence still has an English word once the game's names are taken out."""
    for name in sorted(GAME_NAMES, key=len, reverse=True):
        sentence = sentence.replace(name, "")
    english = {"the", "took", "reserved", "bought", "paying", "put", "back", "visited", "scores"}
    english |= {"wins", "with", "take", "buy", "reserve", "pass", "it", "you", "and", "of"}
    return bool(english & {w.strip(".,:;()").lower() for w in sentence.split()})


def words_of(language: str, bakers: int, seed: int) -> list[str]:
    with translation.override(language):
        view, advice = whole_game(bakers, seed)
        names = NAMES[:bakers]
        final = standings(view, names)
        log = [event_text(e, names, view["rules"]) for e in view["log"]]
        return [*log, *advice, str(final["why"]), str(final["ended"])]


def test_in_english_the_kitchen_log_reads_as_it_always_did() -> None:
    with translation.override("en"):
        view, _ = whole_game(3, 4)
        lines = {e["type"]: event_text(e, NAMES, view["rules"]) for e in view["log"]}
    assert lines["take"].startswith(tuple(NAMES)) and " took " in lines["take"]
    assert lines["over"] == "The game is over."
    assert "visited" in lines["customer"] and lines["customer"].endswith(": 3 points.")
    assert lines["final"].endswith("reached 15 points: this is the last round.")


@pytest.mark.parametrize("language", ["fr", "de"])
@pytest.mark.parametrize(("bakers", "seed"), [(2, 1), (3, 4), (4, 7)])
def test_a_whole_game_in_french_and_german_has_no_english_left(
    language: str, bakers: int, seed: int
) -> None:
    english = words_of("en", bakers, seed)
    said = words_of(language, bakers, seed)
    assert len(said) == len(english) > 40
    assert sum(english_left(s) for s in english) > len(english) // 2  # the check reads English
    assert [s for s in said if english_left(s)] == []
    assert [s for s, e in zip(said, english, strict=True) if s == e and s] == []


@pytest.mark.parametrize("language", ["fr", "de"])
def test_what_a_token_looks_like_is_said_in_the_readers_language(language: str) -> None:
    with translation.override(language):
        shapes = {name: shape(name) for name in SHAPES}
    with translation.override("en"):
        english = {name: shape(name) for name in SHAPES}
    assert english["sugar"] == "white cube"
    assert all(shapes[name] != english[name] for name in SHAPES), shapes
