"""The engines' refusals in the reader's language, by code. An engine stays in English and pure:
it refuses with an IllegalAction carrying a stable code and its values (games/engines/errors.py,
each engine's refusals.py); the services hand it on through `told`, which says the code's
sentence in the language active with the engine's values in place (names stay the game's own).
The msgids are the engines' English word for word (tests/i18n/test_refusals.py checks every code
of both engines against them), so English reads exactly as the engine wrote it. A refusal without
a code (a service's, said already in its reader's language) is said as written.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_noop, ngettext

from games.engines import IllegalAction


@dataclass(frozen=True)
class Refusal:
    """One sentence an engine refuses with: its words, and for a plural, the English plural and
    the value whose number chooses the form (the engine writes its plural whatever the count)."""

    words: str
    plural: str = ""
    count: str = ""

    def said(self, values: dict[str, str]) -> str:
        """The sentence in the language active, with the engine's values."""
        if self.plural:
            return ngettext(self.words, self.plural, int(values[self.count])) % values
        return gettext(self.words) % values


def ngettext_noop(words: str, plural: str, count: str) -> Refusal:
    """A plural refusal, marked for the catalogues (bakery_site/catalogues.py's keywords)."""
    return Refusal(words, plural, count)


def said(words: str) -> Refusal:
    """A refusal of one form (marked by gettext_noop where it is written)."""
    return Refusal(words)


# Both engines alike (games/engines/errors.py's COMMON, rng.py).
COMMON = {
    "bakers-not-whole": said(gettext_noop("The number of bakers must be a whole number.")),
    "options-not-dict": said(gettext_noop("The options must be a dictionary of names and values.")),
    "setup-not-dict": said(gettext_noop("The setup must be a dictionary.")),
    "seed-not-whole": said(gettext_noop("The seed must be a whole number, not %(type)s.")),
    "stream-out-of-range": said(
        gettext_noop("A random stream must be a whole number from 0 to 2**64 - 1.")
    ),
}

# Cakehalla's engine (games/engines/cakehalla/refusals.py).
CAKEHALLA = {
    "game-over": said(gettext_noop("The game is over.")),
    "not-your-turn": said(gettext_noop("It is not your turn.")),
    "action-untyped": said(gettext_noop("An action must name its type.")),
    "nothing-to-return": said(gettext_noop("You have nothing to put back now.")),
    "no-customer-waiting": said(gettext_noop("No customer is waiting for you to choose.")),
    "no-such-action": said(gettext_noop("There is no action called %(kind)s.")),
    "hold-over-limit": ngettext_noop(
        "You hold more than %(limit)s: put some back first.",
        "You hold more than %(limit)s: put some back first.",
        "limit",
    ),
    "choose-customer-first": said(gettext_noop("Several customers could visit: choose one first.")),
    "take-not-list": said(gettext_noop("Say which ingredients to take, as a list.")),
    "saffron-not-taken": said(
        gettext_noop("Saffron cannot be taken; it comes only with a reservation.")
    ),
    "no-such-ingredient": said(gettext_noop("There is no ingredient called %(name)s.")),
    "two-alike-too-few": ngettext_noop(
        "You can take two %(name)s only while its pile holds %(least)s or more.",
        "You can take two %(name)s only while its pile holds %(least)s or more.",
        "least",
    ),
    "take-not-alike": said(
        gettext_noop("Take different ingredients one of each, or two of one kind.")
    ),
    "market-empty": said(gettext_noop("The market has no ingredients left to take.")),
    "market-out-of": said(gettext_noop("The market has no %(name)s left.")),
    "take-three": said(gettext_noop("Take three different ingredients, or two of one kind.")),
    "kinds-left": ngettext_noop(
        "Only %(kinds)s kind is left: take one of each.",
        "Only %(kinds)s kinds are left: take one of each.",
        "kinds",
    ),
    "no-such-card": said(gettext_noop("There is no card called %(card)s.")),
    "reserve-one": said(gettext_noop("Reserve either one card or the top of one pile.")),
    "reserve-full": said(gettext_noop("You already hold three reserved cards.")),
    "card-not-on-counter": said(gettext_noop("The %(card)s is not face up on the counter.")),
    "no-such-tier": said(gettext_noop("Piles are tiers 1, 2 and 3.")),
    "pile-empty": said(gettext_noop("The tier %(tier)s pile is empty.")),
    "buy-one": said(gettext_noop("Buy names one card.")),
    "buy-not-reachable": said(gettext_noop("You can buy only a face-up card or one you reserved.")),
    "cannot-afford": said(gettext_noop("You cannot afford the %(card)s.")),
    "pass-bare": said(gettext_noop("A pass carries nothing else.")),
    "pass-not-allowed": said(
        gettext_noop("You can still take, reserve or buy, so you cannot pass.")
    ),
    "return-not-counts": said(
        gettext_noop("Say which ingredients to put back, as a count per ingredient.")
    ),
    "return-not-whole": said(gettext_noop("Put back a whole number of each ingredient.")),
    "hold-only": ngettext_noop(
        "You hold only %(n)s %(name)s.", "You hold only %(n)s %(name)s.", "n"
    ),
    "return-exactly": ngettext_noop(
        "Put back exactly %(excess)s to hold %(limit)s.",
        "Put back exactly %(excess)s to hold %(limit)s.",
        "excess",
    ),
    "customer-one": said(gettext_noop("Choose one customer.")),
    "no-such-customer": said(gettext_noop("There is no customer called %(customer)s.")),
    "customer-cannot-visit": said(gettext_noop("%(customer)s cannot visit you now.")),
    "game-not-over": said(gettext_noop("The game is not over yet.")),
    "save-damaged": said(gettext_noop("That saved game is damaged and cannot be loaded.")),
    "bakers-count": said(gettext_noop("Cakehalla is for 2 to 4 bakers.")),
    "no-options": said(
        gettext_noop("Cakehalla has no option called %(name)s: it has no options yet.")
    ),
    "setup-empty": said(
        gettext_noop("A setup must give piles, customers or bakers; leave it out to deal.")
    ),
    "setup-keys": said(gettext_noop("The setup may only give piles, customers and bakers.")),
    "setup-pile-keys": said(gettext_noop('The setup piles must be keyed "1", "2" and "3".')),
    "pile-not-list": said(gettext_noop("The tier %(tier)s pile must be a list of card ids.")),
    "not-a-card": said(gettext_noop("%(card)s is not a card.")),
    "not-a-tier-card": said(gettext_noop("%(card)s is not a tier %(tier)s card.")),
    "pile-twice": said(gettext_noop("The tier %(tier)s pile holds a card twice.")),
    "customers-count": ngettext_noop(
        "The setup must show exactly %(wanted)s customers.",
        "The setup must show exactly %(wanted)s customers.",
        "wanted",
    ),
    "not-a-customer": said(gettext_noop("%(customer)s is not a customer.")),
    "customer-twice": said(gettext_noop("The setup shows a customer twice.")),
    "bakers-given": ngettext_noop(
        "The setup must give exactly %(players)s bakers.",
        "The setup must give exactly %(players)s bakers.",
        "players",
    ),
    "baker-keys": said(
        gettext_noop("A baker may only be given tokens, bought and reserved cards.")
    ),
    "bought-not-list": said(gettext_noop("A baker's bought cards must be a list of card ids.")),
    "reserved-not-list": said(gettext_noop("A baker's reserved cards must be a list of card ids.")),
    "tokens-not-map": said(gettext_noop("A baker's tokens must map ingredients to counts.")),
    "token-not-count": said(gettext_noop("%(name)s: %(n)s is not an ingredient and a count.")),
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
    "card-given-twice": said(gettext_noop("The setup gives a card to the bakers twice.")),
    "points-too-many": ngettext_noop(
        "A baker must start below %(points)s points.",
        "A baker must start below %(points)s points.",
        "points",
    ),
    "held-card-in-pile": said(gettext_noop("A card the bakers hold is in a pile too.")),
    "tokens-over-market": said(
        gettext_noop("The bakers hold more of an ingredient than the market has.")
    ),
}

# Midnight Bakery's engine (games/engines/midnight_bakery/refusals.py).
MIDNIGHT_BAKERY = {
    "night-over": said(gettext_noop("The night is over.")),
    "no-baker-in-seat": said(gettext_noop("There is no baker in that seat.")),
    "action-not-object": said(gettext_noop("An action must be an object with a type.")),
    "keep-or-peel": said(gettext_noop("You can keep a pastry or use a Baker's Peel.")),
    "action-fields": said(gettext_noop("A %(kind)s action has exactly these fields: %(fields)s.")),
    "batch-empty": said(gettext_noop("Your batch is empty, so you sit out this pick.")),
    "already-locked": said(gettext_noop("You have already locked your choice for this pick.")),
    "card-not-in-batch": said(gettext_noop("That card is not in your batch.")),
    "peel-two": said(gettext_noop("A Baker's Peel takes exactly two pastries.")),
    "peel-different": said(gettext_noop("A Baker's Peel takes two different pastries.")),
    "peel-from-batch": said(gettext_noop("Both pastries must come from your batch.")),
    "no-peel": said(gettext_noop("You have no Baker's Peel in your case to use.")),
    "night-not-over": said(gettext_noop("The night is not over yet.")),
    "night-bakers-count": said(gettext_noop("Midnight Bakery needs 2 to 8 bakers.")),
    "night-no-option": said(gettext_noop("Midnight Bakery has no option called %(name)s.")),
    "passing-choices": said(gettext_noop("Passing must be Alternate or Next.")),
    "deck-not-list": said(gettext_noop("A custom deck must be a list of card faces or card ids.")),
    "deck-mixed": said(gettext_noop("A custom deck lists card faces or card ids, not both.")),
    "deck-twice": said(gettext_noop("The custom deck holds %(card)s twice.")),
    "night-setup-key": said(
        gettext_noop("A Midnight Bakery setup has no %(name)s; it gives the deck.")
    ),
    "night-setup-deck": said(gettext_noop("A Midnight Bakery setup must give the deck.")),
    "no-such-face": said(gettext_noop("There is no card called %(face)s in Midnight Bakery.")),
}

REFUSALS: dict[str, Refusal] = {**COMMON, **CAKEHALLA, **MIDNIGHT_BAKERY}
"""Every engine refusal by its code (the engines' codes are one namespace: no code means two
sentences; tests/i18n/test_refusals.py)."""


def told(refused: IllegalAction) -> str:
    """An engine's refusal in the language active, by its code; one without a code (or a code
    not listed, as a third game's), as it was written."""
    refusal = REFUSALS.get(refused.code)
    if refusal is None:
        return str(refused)
    return refusal.said(refused.params)
