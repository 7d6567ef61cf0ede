"""Every refusal Midnight Bakery's engine makes, by its stable code: the English words, a value
where each `%(...)s` stands (games/kinds/refusals.py says each in the reader's language by its
code; tests/i18n/test_refusals.py checks that every code here is told there, word for word)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from games.engines.errors import COMMON, N_, IllegalAction, refusal

SAYINGS: dict[str, str] = {
    **COMMON,
    # A pick (pick.py, night.py).
    "night-over": N_("The night is over."),
    "no-baker-in-seat": N_("There is no baker in that seat."),
    "action-not-object": N_("An action must be an object with a type."),
    "keep-or-peel": N_("You can keep a pastry or use a Baker's Peel."),
    "action-fields": N_("A %(kind)s action has exactly these fields: %(fields)s."),
    "batch-empty": N_("Your batch is empty, so you sit out this pick."),
    "already-locked": N_("You have already locked your choice for this pick."),
    "card-not-in-batch": N_("That card is not in your batch."),
    "peel-two": N_("A Baker's Peel takes exactly two pastries."),
    "peel-different": N_("A Baker's Peel takes two different pastries."),
    "peel-from-batch": N_("Both pastries must come from your batch."),
    "no-peel": N_("You have no Baker's Peel in your case to use."),
    "night-not-over": N_("The night is not over yet."),
    # A setup (setup.py, cards.py).
    "night-bakers-count": N_("Midnight Bakery needs 2 to 8 bakers."),
    "night-no-option": N_("Midnight Bakery has no option called %(name)s."),
    "passing-choices": N_("Passing must be Alternate or Next."),
    "deck-not-list": N_("A custom deck must be a list of card faces or card ids."),
    "deck-mixed": N_("A custom deck lists card faces or card ids, not both."),
    "deck-twice": N_("The custom deck holds %(card)s twice."),
    "night-setup-key": N_("A Midnight Bakery setup has no %(name)s; it gives the deck."),
    "night-setup-deck": N_("A Midnight Bakery setup must give the deck."),
    "no-such-face": N_("There is no card called %(face)s in Midnight Bakery."),
}

refused: Callable[..., IllegalAction] = partial(refusal, SAYINGS)
"""Midnight Bakery's refusal of a code with its values: refused("code", name=value)."""
