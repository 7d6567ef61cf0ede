"""The one error every engine raises for a malformed or illegal action, and the refusals both
engines share.

An engine refuses in English and stays pure: each of its refusals has a stable code and values
(the engine's `refusals.py` lists its codes with their English words), so whoever shows it to a
person says it in their language by the code (games/kinds/refusals.py), never by matching the
English. `str(error)` is the English sentence, as it always was.
"""

from __future__ import annotations

from collections.abc import Mapping


class IllegalAction(ValueError):
    """An action the rules do not allow; the message is a sentence a player can read.

    `code` names the refusal and `params` its values as the sentence writes them ("" and {} for
    a sentence made elsewhere, already in its reader's language)."""

    def __init__(self, message: str, code: str = "", params: Mapping[str, str] | None = None):
        super().__init__(message)
        self.code = code
        self.params: dict[str, str] = dict(params or {})

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, str, dict[str, str]]]:
        """Pickled whole (a process pool hands refusals back): code and values too."""
        return (type(self), (str(self), self.code, self.params))


def N_(words: str) -> str:
    """An engine's English sentence, marked where it is written for the site's catalogues
    (bakery_site/catalogues.py extracts `N_` as a msgid); the engine says it as it is."""
    return words


class Plural(str):
    """An engine's sentence whose words follow a count in other languages: the English the engine
    writes whatever the count (its plural), with the English singular and the value whose
    number chooses the form, for the site's ngettext (games/kinds/refusals.py)."""

    singular: str
    counted: str  # not `count`: a str has its own

    def __new__(cls, singular: str, plural: str, counted: str) -> Plural:
        said = super().__new__(cls, plural)
        said.singular, said.counted = singular, counted
        return said


def ngettext_noop(singular: str, plural: str, counted: str) -> Plural:
    """A sentence with a count (`counted`, the value's name), marked where it is written for the
    site's catalogues (extracted as a singular and a plural msgid)."""
    return Plural(singular, plural, counted)


COMMON: dict[str, str] = {
    "bakers-not-whole": N_("The number of bakers must be a whole number."),
    "options-not-dict": N_("The options must be a dictionary of names and values."),
    "setup-not-dict": N_("The setup must be a dictionary."),
    "seed-not-whole": N_("The seed must be a whole number, not %(type)s."),
    "stream-out-of-range": N_("A random stream must be a whole number from 0 to 2**64 - 1."),
}
"""The refusals both engines make alike (and rng.py's), by code: their English words."""


def refusal(sayings: Mapping[str, str], code: str, **params: object) -> IllegalAction:
    """The refusal `code` of these sayings with its values, its English written from them."""
    values = {name: str(value) for name, value in params.items()}
    return IllegalAction(sayings[code] % values, code, values)


def refused(code: str, **params: object) -> IllegalAction:
    """One of the refusals both engines share."""
    return refusal(COMMON, code, **params)
