"""The night's log told from its events' codes (games/kinds/midnight_bakery/log.py): in English
word for word the engine's own sentences over whole random nights (every event type, Peels, the
owl, ties at dawn), and in French and German other words around the game's names."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.engines import midnight_bakery as mb
from games.kinds.midnight_bakery.log import event_words

NIGHTS = [
    (2, "alternate", 1),
    (3, "next", 2),
    (4, "alternate", 3),
    (6, "next", 4),
    (8, "alternate", 5),
]


def night(bakers: int, passing: str, seed: int) -> mb.State:
    """A whole night of random legal moves, Peels taken whenever the dice say so."""
    rng = random.Random(seed)
    state = mb.new_game(bakers, seed=seed, options={"passing": passing})
    while not mb.is_over(state):
        seat = rng.choice(mb.active_seats(state))
        state = mb.apply_action(state, seat, rng.choice(mb.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize(("bakers", "passing", "seed"), NIGHTS)
def test_in_english_the_log_reads_as_the_engine_wrote_it(
    bakers: int, passing: str, seed: int
) -> None:
    state = night(bakers, passing, seed)
    view = mb.view(state, None)
    kinds = {e["type"] for e in view["log"]}
    assert {"deal", "keep", "bake_end", "dawn"} <= kinds
    with translation.override("en"):
        for e in view["log"]:
            assert event_words(e, view) == e["text"]


@pytest.mark.parametrize("language", ["fr", "de"])
def test_in_french_and_german_no_sentence_of_the_log_is_the_engines(language: str) -> None:
    state = night(2, "alternate", 1)  # two bakers: the owl snatches too
    view = mb.view(state, None)
    assert any(e["type"] == "snatch" for e in view["log"])
    with translation.override(language):
        for e in view["log"]:
            assert event_words(e, view) != e["text"], e
