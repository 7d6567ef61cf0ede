"""Usernames: the house bots' own names, and the names a person may not take.

Look-alikes are refused as django-registration does, with confusable_homoglyphs (Unicode's
confusables and scripts data): a name may not mix alphabets ("alice" spelt with a Cyrillic "a"),
and a name whose skeleton (each character as the one it is confused with, case aside, digits read
as the letters they stand for, and the separators _ - . @ + left out) is another person's or a
held name's is taken (accounts.models.User.clean, accounts.forms.SignUpForm). The skeleton is
stored with each account under a unique index, so two sign-ups at once cannot both take it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy

BOT_NAME = re.compile(r".+-bot-\d+", re.IGNORECASE)
HOUSE_NAMES = frozenset({"owl", "nightowl", "bakehouse"})
ONLY_DOTS = re.compile(r"\.+")
# "greedy_b0t_1", "greedy.bot1": a house bot's name with other separators or a digit for the o.
BOT_LOOK_ALIKE = re.compile(r".+[-_.]b[o0]t[-_.]?\d+", re.IGNORECASE)


def bot_name(level: str, index: int) -> str:
    """The username of the index-th house bot account of a level."""
    return f"{level}-bot-{index}"


def refusal(name: str) -> str | None:
    """Why a person may not take this username, or None when they may."""
    if ONLY_DOTS.fullmatch(name):
        return gettext("A username cannot be only dots: its profile link would break.")
    if BOT_NAME.fullmatch(name) or BOT_LOOK_ALIKE.fullmatch(name):
        return gettext("Names ending in -bot-<number> are kept for the house bots.")
    if skeleton(name) in HOUSE_SKELETONS:
        return gettext("That name is kept for the house.")
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
MIXED_SCRIPTS = gettext_lazy(
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


# Digits read as the letters they pass for ("bri0che", "a1ice", "5ugar"); one letter each, so two
# numbers never share a skeleton. The confusables data already reads 1 as l; a casefolded I
# (i) reads as l too, as it does in most sans-serif fonts.
DIGIT_LETTERS = str.maketrans(
    {"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "i": "l"}
)
# Separators a name may hold that add nothing to how it reads ("demo_brioche_", "demo.brioche").
SEPARATORS = str.maketrans("", "", "_-.@+")


def skeleton(name: str) -> str:
    """The name as it looks, case aside: two names with one skeleton pass for each other."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    looks = "".join(stand_in(char) for char in folded).casefold()
    return looks.translate(SEPARATORS).translate(DIGIT_LETTERS)


HOUSE_SKELETONS = frozenset(skeleton(name) for name in HOUSE_NAMES)
