"""Cakehalla's guided first game (games/services/tutorial.py): its deal started part way, its
planned moves and why, and the board's taps that make each move."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import cast

from django.utils.translation import gettext_noop as N_

from games.engines.cakehalla.cards import CARDS
from games.engines.cakehalla.shapes import BakerSetup
from games.engines.cakehalla.state import HAND_LIMIT
from games.kinds.lessons import Lesson, Press, Scripted


def take_presses(ingredients: Sequence[str]) -> tuple[Press, ...]:
    """Each ingredient of a take tapped in turn (the same one twice for two), then Take; a tap is
    made once board.js marks the token picked (data-picked). First, only while something else is
    picked: Clear."""
    planned = "".join(f":not([data-ing='{name}'])" for name in dict.fromkeys(ingredients))
    wrong = [f"[data-ing][data-picked]:not([data-picked='0']){planned}"]
    wrong += [
        f"[data-ing='{n}'][data-picked='2']" for n in ingredients if ingredients.count(n) == 1
    ]
    clean = "".join(f":not(:has({picked}))" for picked in wrong)
    clear = Press("#market-form [data-clear]", f"#market-form{clean}")
    presses = [clear]
    for i, name in enumerate(ingredients):
        token = f"#market-form [data-ing='{name}']"
        if ingredients[:i].count(name):
            done = f"{token}[data-picked='2']"
        else:
            done = f"{token}[data-picked='1'], {token}[data-picked='2']"
        presses.append(Press(token, done))
    return (*presses, Press("#market-form [data-take]"))


def sends(action: Mapping[str, object]) -> str:
    """A selector for the button whose value is this action, whatever the order of its fields."""
    fields = (json.dumps({k: v}, separators=(",", ":"))[1:-1] for k, v in action.items())
    return "button" + "".join(f"[value*='{field}']" for field in fields)


def return_presses(amounts: Mapping[str, int]) -> tuple[Press, ...]:
    """One more of an ingredient to put back, as many times as it takes, then Put back; a tap is
    made once board.js counts the row up to it (data-n)."""
    presses = []
    for name, n in amounts.items():
        row = f"#return-form [data-back='{name}']"
        for i in range(1, n + 1):
            done = ", ".join(f"{row}[data-n='{j}']" for j in range(i, 2 * HAND_LIMIT))
            presses.append(Press(f"{row} [data-step='1']", done))
    return (*presses, Press("#return-form [data-return]"))


def lesson_control(action: Mapping[str, object]) -> tuple[Press, ...]:
    """The board's taps that make this action, in order: a card's (or pile's) menu is opened
    before its Buy or Reserve."""
    if action["type"] == "take":
        return take_presses(list(cast(list[str], action["ingredients"])))
    if action["type"] == "return":
        return return_presses(cast(Mapping[str, int], action["ingredients"]))
    if action["type"] == "reserve" and "tier" in action:
        menu = f"#pile-{action['tier']}"
    elif action["type"] in {"buy", "reserve"}:
        menu = f":is(#offer-counter-{action['card']}, #offer-reserve-{action['card']})"
    else:
        return (Press(f"#board {sends(action)}"),)
    return (Press(f"{menu} > summary", f"{menu}[open]"), Press(f"{menu} {sends(action)}"))


# The guided first game starts part way, as a board game's tutorial does: you (the first seat)
# hold 6 points of cards and race a random bot to 15 in six moves that show every kind of turn.
LESSON_YOU: BakerSetup = {
    "tokens": {"blueberry": 2, "cocoa": 1},
    "bought": [
        *("1-sugar-1", "1-blueberry-5", "1-matcha-1", "1-matcha-5", "1-matcha-8"),
        *("2-matcha-6", "1-cherry-1", "1-cherry-7", "2-cherry-5"),
    ],
}


LESSON_RIVAL: BakerSetup = {
    "tokens": {"sugar": 1, "cocoa": 2},
    "bought": ["1-cocoa-1", "1-sugar-2", "2-sugar-1", "1-cocoa-8"],
}

LESSON_COUNTER = {
    1: ["1-cocoa-5", "1-blueberry-1", "1-sugar-5", "1-cherry-4"],
    2: ["2-sugar-3", "2-cherry-3", "2-cocoa-1", "2-blueberry-5"],
    3: ["3-sugar-2", "3-cherry-3", "3-blueberry-1", "3-cocoa-4"],
}


def lesson_piles() -> dict[str, list[str]]:
    """Each pile: the counter's four first, then the cards no baker holds, in the table's order."""
    held = {*LESSON_YOU["bought"], *LESSON_RIVAL["bought"]}
    piles = {}
    for tier, face_up in LESSON_COUNTER.items():
        rest = [c.id for c in CARDS if c.tier == tier and c.id not in held | set(face_up)]
        piles[str(tier)] = face_up + rest
    return piles


LESSON = Lesson(
    setup={
        "piles": lesson_piles(),
        "customers": ["pair-2", "pair-0", "trio-3"],
        "bakers": [LESSON_YOU, LESSON_RIVAL],
    },
    seed=20261204,  # seats you first, and the bot's choices leave your plan open
    bot="random",
    options={},
    welcome=N_(
        "A game joined part way, at 6 points: each card you bought takes one ingredient off"
        " every later cost (the small cards in Your bakery). Race one bot to 15 in six turns."
    ),
    scoring=N_(
        "Most points wins; on a tie the baker who bought fewer cards would win (reserved cards"
        " do not count), and if that ties too they share the win."
    ),
    round_scored="",
    control=lesson_control,
    results_control="#region-results .results-card",
    close_control="",
    script=(
        Scripted(
            {"type": "take", "ingredients": ["sugar", "blueberry", "cherry"]},
            N_(
                "Three different kinds, one of each, is the everyday turn, and Blueberry is what"
                " the Cherry Cream Puff costs you."
            ),
        ),
        Scripted(
            {"type": "take", "ingredients": ["matcha", "matcha"]},
            N_(
                "Two of one kind are allowed while its pile holds 4 or more, and the Cherry Opera"
                " Cake needs 2 Matcha beyond your discounts."
            ),
        ),
        Scripted(
            {"type": "reserve", "card": "3-cherry-3"},
            N_(
                "Reserving keeps this 4-point cake for you alone and gives you a Saffron, the wild"
                " ingredient that pays for any one you lack."
            ),
        ),
        Scripted(
            {"type": "buy", "card": "2-cherry-3"},
            N_(
                "Your cards' discounts pay its Sugar and Matcha so you pay only 3 Blueberry, and"
                " its Cherry discount is the fourth the Matcha Monk wants: a customer visits for 3"
                " points."
            ),
        ),
        Scripted(
            {"type": "take", "ingredients": ["sugar", "blueberry", "cocoa"]},
            N_("One more Blueberry, with your Saffron, pays for the Opera Cake you reserved."),
        ),
        Scripted(
            {"type": "buy", "card": "3-cherry-3"},
            N_(
                "It takes you to 15 points: the round is played out so your rival has as many"
                " turns, then the most points wins."
            ),
        ),
    ),
)
