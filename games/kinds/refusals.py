"""The engines' refusals in the reader's language. An engine stays in English and pure: it refuses
a move with a sentence (IllegalAction); the services hand that sentence on through `told`, which
finds it here by its shape (the sentence with its values, a name or a number, where `%(...)s`
stands) and says it in the language active, its values as they were. A sentence not listed here
(a game without a table, a malformed setup no person sends) is said as the engine wrote it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from django.utils.translation import gettext, gettext_noop, ngettext

PLACE = re.compile(r"%\((\w+)\)s")


@dataclass(frozen=True)
class Refusal:
    """One sentence an engine refuses with: its words, and for a plural, the English plural and
    the value whose number chooses the form (the engine writes its plural whatever the count)."""

    words: str
    plural: str = ""
    count: str = ""

    @cached_property
    def shapes(self) -> tuple[re.Pattern[str], ...]:
        """The engine's sentence as patterns, a value where each `%(...)s` stands."""
        return tuple(shape_of(words) for words in (self.words, self.plural) if words)

    def said(self, values: dict[str, str]) -> str:
        """The sentence in the language active, with the engine's values."""
        if self.plural:
            return ngettext(self.words, self.plural, int(values[self.count])) % values
        return gettext(self.words) % values


def shape_of(words: str) -> re.Pattern[str]:
    """A sentence's words as a pattern: its text as it is, a named group for each value."""
    parts = PLACE.split(words)
    pattern = "".join(
        re.escape(part) if n % 2 == 0 else f"(?P<{part}>.+?)" for n, part in enumerate(parts)
    )
    return re.compile(pattern)


def ngettext_noop(words: str, plural: str, count: str) -> Refusal:
    """A plural refusal, marked for the catalogues (bakery_site/catalogues.py's keywords)."""
    return Refusal(words, plural, count)


def said(words: str) -> Refusal:
    """A refusal of one form (marked by gettext_noop where it is written)."""
    return Refusal(words)


# Cakehalla's engine (games/engines/cakehalla/actions.py, turn.py).
CAKEHALLA = (
    said(gettext_noop("The game is over.")),
    said(gettext_noop("It is not your turn.")),
    said(gettext_noop("An action must name its type.")),
    said(gettext_noop("You have nothing to put back now.")),
    said(gettext_noop("No customer is waiting for you to choose.")),
    said(gettext_noop("There is no action called %(kind)s.")),
    ngettext_noop(
        "You hold more than %(limit)s: put some back first.",
        "You hold more than %(limit)s: put some back first.",
        "limit",
    ),
    said(gettext_noop("Several customers could visit: choose one first.")),
    said(gettext_noop("Say which ingredients to take, as a list.")),
    said(gettext_noop("Saffron cannot be taken; it comes only with a reservation.")),
    said(gettext_noop("There is no ingredient called %(name)s.")),
    ngettext_noop(
        "You can take two %(name)s only while its pile holds %(least)s or more.",
        "You can take two %(name)s only while its pile holds %(least)s or more.",
        "least",
    ),
    said(gettext_noop("Take different ingredients one of each, or two of one kind.")),
    said(gettext_noop("The market has no ingredients left to take.")),
    said(gettext_noop("The market has no %(name)s left.")),
    said(gettext_noop("Take three different ingredients, or two of one kind.")),
    ngettext_noop(
        "Only %(kinds)s kind is left: take one of each.",
        "Only %(kinds)s kinds are left: take one of each.",
        "kinds",
    ),
    said(gettext_noop("There is no card called %(card)s.")),
    said(gettext_noop("Reserve either one card or the top of one pile.")),
    said(gettext_noop("You already hold three reserved cards.")),
    said(gettext_noop("The %(card)s is not face up on the counter.")),
    said(gettext_noop("Piles are tiers 1, 2 and 3.")),
    said(gettext_noop("The tier %(tier)s pile is empty.")),
    said(gettext_noop("Buy names one card.")),
    said(gettext_noop("You can buy only a face-up card or one you reserved.")),
    said(gettext_noop("You cannot afford the %(card)s.")),
    said(gettext_noop("A pass carries nothing else.")),
    said(gettext_noop("You can still take, reserve or buy, so you cannot pass.")),
    said(gettext_noop("Say which ingredients to put back, as a count per ingredient.")),
    said(gettext_noop("Put back a whole number of each ingredient.")),
    ngettext_noop("You hold only %(n)s %(name)s.", "You hold only %(n)s %(name)s.", "n"),
    ngettext_noop(
        "Put back exactly %(excess)s to hold %(limit)s.",
        "Put back exactly %(excess)s to hold %(limit)s.",
        "excess",
    ),
    said(gettext_noop("Choose one customer.")),
    said(gettext_noop("There is no customer called %(customer)s.")),
    said(gettext_noop("%(customer)s cannot visit you now.")),
)

# Midnight Bakery's engine (games/engines/midnight_bakery/pick.py).
MIDNIGHT_BAKERY = (
    said(gettext_noop("The night is over.")),
    said(gettext_noop("There is no baker in that seat.")),
    said(gettext_noop("An action must be an object with a type.")),
    said(gettext_noop("You can keep a pastry or use a Baker's Peel.")),
    said(gettext_noop("A %(kind)s action has exactly these fields: %(fields)s.")),
    said(gettext_noop("Your batch is empty, so you sit out this pick.")),
    said(gettext_noop("You have already locked your choice for this pick.")),
    said(gettext_noop("That card is not in your batch.")),
    said(gettext_noop("A Baker's Peel takes exactly two pastries.")),
    said(gettext_noop("A Baker's Peel takes two different pastries.")),
    said(gettext_noop("Both pastries must come from your batch.")),
    said(gettext_noop("You have no Baker's Peel in your case to use.")),
)

REFUSALS = (*CAKEHALLA, *MIDNIGHT_BAKERY)


def told(sentence: str) -> str:
    """An engine's refusal in the language active; one not listed, as the engine wrote it."""
    for refusal in REFUSALS:
        for shape in refusal.shapes:
            found = shape.fullmatch(sentence)
            if found is not None:
                return refusal.said(found.groupdict())
    return sentence
