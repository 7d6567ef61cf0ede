"""Midnight Bakery's guided first game (games/services/tutorial.py): a short night's fixed deck,
and the board's button that keeps a card."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_noop as N_

from games.kinds.lessons import Lesson, Press


def keep_control(action: Mapping[str, object]) -> tuple[Press, ...]:
    """The batch's button that keeps this card (its id, quoted, sits in the button's value)."""
    return (Press(f"#batch-form button[value*='\"{action['card']}\"']"),)


# A short night for the guided first game: 30 cards deal one bake of ten picks to each of two
# bakers and the Night Owl, then the empty deck brings dawn (the engine's early end). No Peel:
# its two-tap keep is left for a real night.
LESSON_DECK = [
    *("croissant", "jam", "macaron", "truffle", "bun", "baguette-2", "croissant", "glaze"),
    *("macaron", "baguette-1"),
    *("croissant", "fruit", "macaron", "bun", "truffle", "baguette-3", "croissant", "bun"),
    *("baguette-2", "chocolate"),
    *("macaron", "truffle", "bun", "croissant", "glaze", "baguette-2", "fruit", "truffle"),
    *("baguette-3", "baguette-1"),
]


LESSON = Lesson(
    setup={"deck": LESSON_DECK},
    seed=20261204,
    bot="random",
    options={"passing": "alternate"},
    welcome=N_(
        "A short night: one bake of ten picks against one bot, while the Night Owl snatches"
        " a card each pick."
    ),
    scoring=N_(
        "Dawn: each case scored its pairs, threes, buns, tarts and loaves, then the truffle"
        " boxes paid 7 for the most and -3 for none."
    ),
    round_scored=N_("The bake is scored: read how each case scored, then go back to the ovens."),
    control=keep_control,
    results_control="#region-results .results-card",
    close_control="#region-results form button[type='submit']",
)
