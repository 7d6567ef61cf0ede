"""Every refusal Cakehalla's engine makes, by its stable code: the English words, a value where
each `%(...)s` stands (games/kinds/refusals.py says each in the reader's language by its code;
tests/i18n/test_refusals.py checks that every code here is told there, word for word)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from games.engines.errors import COMMON, IllegalAction, refusal

SAYINGS: dict[str, str] = {
    **COMMON,
    # A turn (actions.py, turn.py).
    "game-over": "The game is over.",
    "not-your-turn": "It is not your turn.",
    "action-untyped": "An action must name its type.",
    "nothing-to-return": "You have nothing to put back now.",
    "no-customer-waiting": "No customer is waiting for you to choose.",
    "no-such-action": "There is no action called %(kind)s.",
    "hold-over-limit": "You hold more than %(limit)s: put some back first.",
    "choose-customer-first": "Several customers could visit: choose one first.",
    "take-not-list": "Say which ingredients to take, as a list.",
    "saffron-not-taken": "Saffron cannot be taken; it comes only with a reservation.",
    "no-such-ingredient": "There is no ingredient called %(name)s.",
    "two-alike-too-few": "You can take two %(name)s only while its pile holds %(least)s or more.",
    "take-not-alike": "Take different ingredients one of each, or two of one kind.",
    "market-empty": "The market has no ingredients left to take.",
    "market-out-of": "The market has no %(name)s left.",
    "take-three": "Take three different ingredients, or two of one kind.",
    "kinds-left": "Only %(kinds)s kinds are left: take one of each.",
    "no-such-card": "There is no card called %(card)s.",
    "reserve-one": "Reserve either one card or the top of one pile.",
    "reserve-full": "You already hold three reserved cards.",
    "card-not-on-counter": "The %(card)s is not face up on the counter.",
    "no-such-tier": "Piles are tiers 1, 2 and 3.",
    "pile-empty": "The tier %(tier)s pile is empty.",
    "buy-one": "Buy names one card.",
    "buy-not-reachable": "You can buy only a face-up card or one you reserved.",
    "cannot-afford": "You cannot afford the %(card)s.",
    "pass-bare": "A pass carries nothing else.",
    "pass-not-allowed": "You can still take, reserve or buy, so you cannot pass.",
    "return-not-counts": "Say which ingredients to put back, as a count per ingredient.",
    "return-not-whole": "Put back a whole number of each ingredient.",
    "hold-only": "You hold only %(n)s %(name)s.",
    "return-exactly": "Put back exactly %(excess)s to hold %(limit)s.",
    "customer-one": "Choose one customer.",
    "no-such-customer": "There is no customer called %(customer)s.",
    "customer-cannot-visit": "%(customer)s cannot visit you now.",
    "game-not-over": "The game is not over yet.",
    "save-damaged": "That saved game is damaged and cannot be loaded.",
    # A setup (setup.py).
    "bakers-count": "Cakehalla is for 2 to 4 bakers.",
    "no-options": "Cakehalla has no option called %(name)s: it has no options yet.",
    "setup-empty": "A setup must give piles, customers or bakers; leave it out to deal.",
    "setup-keys": "The setup may only give piles, customers and bakers.",
    "setup-pile-keys": 'The setup piles must be keyed "1", "2" and "3".',
    "pile-not-list": "The tier %(tier)s pile must be a list of card ids.",
    "not-a-card": "%(card)s is not a card.",
    "not-a-tier-card": "%(card)s is not a tier %(tier)s card.",
    "pile-twice": "The tier %(tier)s pile holds a card twice.",
    "customers-count": "The setup must show exactly %(wanted)s customers.",
    "not-a-customer": "%(customer)s is not a customer.",
    "customer-twice": "The setup shows a customer twice.",
    "bakers-given": "The setup must give exactly %(players)s bakers.",
    "baker-keys": "A baker may only be given tokens, bought and reserved cards.",
    "bought-not-list": "A baker's bought cards must be a list of card ids.",
    "reserved-not-list": "A baker's reserved cards must be a list of card ids.",
    "tokens-not-map": "A baker's tokens must map ingredients to counts.",
    "token-not-count": "%(name)s: %(n)s is not an ingredient and a count.",
    "tokens-over-limit": "A baker starts with at most %(limit)s ingredients.",
    "reserves-over-limit": "A baker reserves at most %(limit)s cards.",
    "card-given-twice": "The setup gives a card to the bakers twice.",
    "points-too-many": "A baker must start below %(points)s points.",
    "held-card-in-pile": "A card the bakers hold is in a pile too.",
    "tokens-over-market": "The bakers hold more of an ingredient than the market has.",
}

refused: Callable[..., IllegalAction] = partial(refusal, SAYINGS)
"""Cakehalla's refusal of a code with its values: refused("code", name=value)."""
