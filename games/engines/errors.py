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


COMMON: dict[str, str] = {
    "bakers-not-whole": "The number of bakers must be a whole number.",
    "options-not-dict": "The options must be a dictionary of names and values.",
    "setup-not-dict": "The setup must be a dictionary.",
    "seed-not-whole": "The seed must be a whole number, not %(type)s.",
    "stream-out-of-range": "A random stream must be a whole number from 0 to 2**64 - 1.",
}
"""The refusals both engines make alike (and rng.py's), by code: their English words."""


def refusal(sayings: Mapping[str, str], code: str, **params: object) -> IllegalAction:
    """The refusal `code` of these sayings with its values, its English written from them."""
    values = {name: str(value) for name, value in params.items()}
    return IllegalAction(sayings[code] % values, code, values)


def refused(code: str, **params: object) -> IllegalAction:
    """One of the refusals both engines share."""
    return refusal(COMMON, code, **params)
