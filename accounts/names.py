"""Usernames: the house bots' own names, and the names a person may not take."""

from __future__ import annotations

import re

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
