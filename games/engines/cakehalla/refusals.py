"""Every refusal Cakehalla's engine makes, by its stable code: the English words, a value where
each `%(...)s` stands (games/kinds/refusals.py says each in the reader's language by its code;
tests/i18n/test_refusals.py checks that every code here is told there, word for word)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from games.engines.errors import COMMON, N_, IllegalAction, ngettext_noop, refusal

SAYINGS: dict[str, str] = {
    **COMMON,
    # A turn (actions.py, turn.py).
    "game-over": N_("The game is over."),
    "not-your-turn": N_("It is not your turn."),
    "action-untyped": N_("An action must name its type."),
    "nothing-to-return": N_("You have nothing to put back now."),
    "no-customer-waiting": N_("No customer is waiting for you to choose."),
    "no-such-action": N_("There is no action called %(kind)s."),
    "hold-over-limit": ngettext_noop(
        "You hold more than %(limit)s: put some back first.",
        "You hold more than %(limit)s: put some back first.",
        "limit",
    ),
    "choose-customer-first": N_("Several customers could visit: choose one first."),
    "take-not-list": N_("Say which ingredients to take, as a list."),
    "saffron-not-taken": N_("Saffron cannot be taken; it comes only with a reservation."),
    "no-such-ingredient": N_("There is no ingredient called %(name)s."),
    "two-alike-too-few": ngettext_noop(
        "You can take two %(name)s only while its pile holds %(least)s or more.",
        "You can take two %(name)s only while its pile holds %(least)s or more.",
        "least",
    ),
    "take-not-alike": N_("Take different ingredients one of each, or two of one kind."),
    "market-empty": N_("The market has no ingredients left to take."),
    "market-out-of": N_("The market has no %(name)s left."),
    "take-three": N_("Take three different ingredients, or two of one kind."),
    "kinds-left": ngettext_noop(
        "Only %(kinds)s kind is left: take one of each.",
        "Only %(kinds)s kinds are left: take one of each.",
        "kinds",
    ),
    "no-such-card": N_("There is no card called %(card)s."),
    "reserve-one": N_("Reserve either one card or the top of one pile."),
    "reserve-full": N_("You already hold three reserved cards."),
    "card-not-on-counter": N_("The %(card)s is not face up on the counter."),
    "no-such-tier": N_("Piles are tiers 1, 2 and 3."),
    "pile-empty": N_("The tier %(tier)s pile is empty."),
    "buy-one": N_("Buy names one card."),
    "buy-not-reachable": N_("You can buy only a face-up card or one you reserved."),
    "cannot-afford": N_("You cannot afford the %(card)s."),
    "pass-bare": N_("A pass carries nothing else."),
    "pass-not-allowed": N_("You can still take, reserve or buy, so you cannot pass."),
    "return-not-counts": N_("Say which ingredients to put back, as a count per ingredient."),
    "return-not-whole": N_("Put back a whole number of each ingredient."),
    "hold-only": ngettext_noop(
        "You hold only %(n)s %(name)s.", "You hold only %(n)s %(name)s.", "n"
    ),
    "return-exactly": ngettext_noop(
        "Put back exactly %(excess)s to hold %(limit)s.",
        "Put back exactly %(excess)s to hold %(limit)s.",
        "excess",
    ),
    "customer-one": N_("Choose one customer."),
    "no-such-customer": N_("There is no customer called %(customer)s."),
    "customer-cannot-visit": N_("%(customer)s cannot visit you now."),
    "game-not-over": N_("The game is not over yet."),
    "save-damaged": N_("That saved game is damaged and cannot be loaded."),
    # A setup (setup.py).
    "bakers-count": N_("Cakehalla is for 2 to 4 bakers."),
    "no-options": N_("Cakehalla has no option called %(name)s: it has no options yet."),
    "setup-empty": N_("A setup must give piles, customers or bakers; leave it out to deal."),
    "setup-keys": N_("The setup may only give piles, customers and bakers."),
    "setup-pile-keys": N_('The setup piles must be keyed "1", "2" and "3".'),
    "pile-not-list": N_("The tier %(tier)s pile must be a list of card ids."),
    "not-a-card": N_("%(card)s is not a card."),
    "not-a-tier-card": N_("%(card)s is not a tier %(tier)s card."),
    "pile-twice": N_("The tier %(tier)s pile holds a card twice."),
    "customers-count": ngettext_noop(
        "The setup must show exactly %(wanted)s customers.",
        "The setup must show exactly %(wanted)s customers.",
        "wanted",
    ),
    "not-a-customer": N_("%(customer)s is not a customer."),
    "customer-twice": N_("The setup shows a customer twice."),
    "bakers-given": ngettext_noop(
        "The setup must give exactly %(players)s bakers.",
        "The setup must give exactly %(players)s bakers.",
        "players",
    ),
    "baker-keys": N_("A baker may only be given tokens, bought and reserved cards."),
    "bought-not-list": N_("A baker's bought cards must be a list of card ids."),
    "reserved-not-list": N_("A baker's reserved cards must be a list of card ids."),
    "tokens-not-map": N_("A baker's tokens must map ingredients to counts."),
    "token-not-count": N_("%(name)s: %(n)s is not an ingredient and a count."),
    "tokens-over-limit": ngettext_noop(
        "A baker starts with at most %(limit)s ingredients.",
        "A baker starts with at most %(limit)s ingredients.",
        "limit",
    ),
    "reserves-over-limit": ngettext_noop(
        "A baker reserves at most %(limit)s cards.",
        "A baker reserves at most %(limit)s cards.",
        "limit",
    ),
    "card-given-twice": N_("The setup gives a card to the bakers twice."),
    "points-too-many": ngettext_noop(
        "A baker must start below %(points)s points.",
        "A baker must start below %(points)s points.",
        "points",
    ),
    "held-card-in-pile": N_("A card the bakers hold is in a pile too."),
    "tokens-over-market": N_("The bakers hold more of an ingredient than the market has."),
}

refused: Callable[..., IllegalAction] = partial(refusal, SAYINGS)
"""Cakehalla's refusal of a code with its values: refused("code", name=value)."""
