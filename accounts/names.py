"""Usernames: the house bots' own names, and the names a person may not take.

Look-alikes are refused as django-registration does, with confusable_homoglyphs (Unicode's
confusables and scripts data): a name may not mix alphabets ("alice" spelt with a Cyrillic "a"),
and a name whose skeleton (each character as the one it is confused with, case aside) is another
person's is taken (accounts.models.User.clean).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables
from django.core.exceptions import ValidationError

BOT_NAME = re.compile(r".+-bot-\d+", re.IGNORECASE)
HOUSE_NAMES = frozenset({"owl", "nightowl", "bakehouse"})
ONLY_DOTS = re.compile(r"\.+")


def bot_name(level: str, index: int) -> str:
    """The username of the index-th house bot account of a level."""
    return f"{level}-bot-{index}"


def squashed(name: str) -> str:
    """The name lowercased without separators, to compare with the house names."""
    return re.sub(r"[-_.@+]", "", name).lower()


def refusal(name: str) -> str | None:
    """Why a person may not take this username, or None when they may."""
    if ONLY_DOTS.fullmatch(name):
        return "A username cannot be only dots: its profile link would break."
    if BOT_NAME.fullmatch(name):
        return "Names ending in -bot-<number> are kept for the house bots."
    if squashed(name) in HOUSE_NAMES:
        return "That name is kept for the house."
    return None


def validate_person_name(name: str) -> None:
    """Refuse a username kept for the house or one that breaks its profile link."""
    reason = refusal(name)
    if reason is not None:
        raise ValidationError(reason, code="reserved")


# Scripts a name may combine (UTS #39's "highly restrictive" level): one alphabet, or Latin with
# the scripts Japanese, Chinese or Korean names are written in. Digits and ._@+- are COMMON.
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
MIXED_SCRIPTS = (
    "A username may not mix alphabets (such as Latin and Cyrillic letters): it could pass for "
    "someone else's. Write it in one."
)
# Bidirectional marks that wrap some right-to-left look-alikes in the confusables data.
MARKS = "\u200e\u200f"


def mixes_scripts(name: str) -> bool:
    """Whether the name mixes alphabets beyond the usual East Asian combinations."""
    scripts = {categories.alias(char) for char in name} - SHARED_SCRIPTS
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in SCRIPT_MIXES)


def look_alikes(char: str) -> list[str]:
    """The single characters the confusables data says this one is confused with."""
    found = (glyph["c"].strip(MARKS) for glyph in confusables.confusables_data.get(char, []))
    return [glyph for glyph in found if len(glyph) == 1]


@cache
def stand_in(char: str) -> str:
    """One character for all that look like this one: a lower-case ASCII letter if any does.

    The data pairs each look-alike with the character it imitates, both ways, so the family is
    the character, its look-alikes and, for an imitation, the ones its original has.
    """
    near = look_alikes(char)
    family = {char, *near}
    if len(near) == 1:
        family.update(look_alikes(near[0]))
    return min(family, key=lambda c: (not (c.isascii() and c.islower()), not c.isascii(), ord(c)))


def skeleton(name: str) -> str:
    """The name as it looks, case aside: two names with one skeleton pass for each other."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(stand_in(char) for char in folded).casefold()
