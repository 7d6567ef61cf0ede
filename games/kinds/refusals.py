"""The engines' refusals in the reader's language, by code. An engine stays in English and pure:
it refuses with an IllegalAction carrying a stable code and its values (games/engines/errors.py,
each engine's refusals.py); the services hand it on through `told`, which says the code's
sentence in the language active with the engine's values in place (names stay the game's own).
The msgids are the engines' English, marked for the catalogues where the engines write it (each
engine's refusals.py), so English reads exactly as the engine wrote it. A refusal without
a code (a service's, said already in its reader's language) is said as written.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from games.engines import IllegalAction
from games.engines.cakehalla.refusals import SAYINGS as cakehalla_sayings
from games.engines.errors import Plural
from games.engines.midnight_bakery.refusals import SAYINGS as midnight_bakery_sayings


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


def refusal_of(saying: str) -> Refusal:
    """How a code's English, as its engine lists it, is said in another language."""
    if isinstance(saying, Plural):
        return Refusal(saying.singular, str(saying), saying.counted)
    return Refusal(saying)


REFUSALS: dict[str, Refusal] = {
    code: refusal_of(saying)
    for sayings in (cakehalla_sayings, midnight_bakery_sayings)
    for code, saying in sayings.items()
}
"""Every engine refusal by its code (the engines' codes are one namespace: no code means two
sentences; tests/i18n/test_refusals.py), from the engines' own lists, where their words are
marked for the catalogues (N_ and ngettext_noop of games/engines/errors.py)."""


def told(refused: IllegalAction) -> str:
    """An engine's refusal in the language active, by its code; one without a code (or a code
    not listed, as a third game's), as it was written."""
    refusal = REFUSALS.get(refused.code)
    if refusal is None:
        return str(refused)
    return refusal.said(refused.params)
