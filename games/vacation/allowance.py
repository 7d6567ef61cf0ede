"""The yearly allowance of vacation days: what is left of it, and why a vacation cannot be taken.

The rows and the limits live with the account (accounts.models: Vacation, VACATION_DAYS_A_YEAR,
VACATION_MOST_AT_ONCE, VACATION_START_WITHIN_DAYS), which the clocks read; what a person may take
is the vacation feature's question, answered here in the person's language.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.utils.translation import gettext, ngettext

from accounts.models import (
    VACATION_DAYS_A_YEAR,
    VACATION_MOST_AT_ONCE,
    VACATION_START_WITHIN_DAYS,
    Vacation,
)
from accounts.words import hours_words

HOUR = timedelta(hours=1)


def vacation_hours_left(user_id: int, year: int) -> int:
    """Hours of the yearly allowance left to the person: each vacation starting in that year
    takes the hours it stands the clocks still, from its start to its end (a vacation ended
    early ends then), a part of an hour counted whole."""
    taken = Vacation.objects.filter(user_id=user_id, starts_at__year=year)
    spans = taken.values_list("starts_at", "ends_at")
    used = sum(math.ceil((ends - starts) / HOUR) for starts, ends in spans)
    return VACATION_DAYS_A_YEAR * 24 - used


def vacation_refusal(user_id: int, starts_at: datetime, days: int, at: datetime) -> str | None:
    """Why this vacation cannot be taken (a sentence), or None when it can."""
    if days < 1:
        return gettext("A vacation lasts at least one day.")
    if days > VACATION_MOST_AT_ONCE:
        return ngettext(
            "A vacation lasts at most %(days)d day at once.",
            "A vacation lasts at most %(days)d days at once.",
            VACATION_MOST_AT_ONCE,
        ) % {"days": VACATION_MOST_AT_ONCE}
    if starts_at.date() < at.date():
        return gettext("A vacation cannot start in the past.")
    if starts_at - at > timedelta(days=VACATION_START_WITHIN_DAYS):
        return ngettext(
            "A vacation starts within the next %(days)d day.",
            "A vacation starts within the next %(days)d days.",
            VACATION_START_WITHIN_DAYS,
        ) % {"days": VACATION_START_WITHIN_DAYS}
    ends_at = starts_at + timedelta(days=days)
    mine = Vacation.objects.filter(user_id=user_id)
    if mine.filter(starts_at__lt=ends_at, ends_at__gt=starts_at).exists():
        return gettext("You are already away for part of those days.")
    left = vacation_hours_left(user_id, starts_at.year)
    if days * 24 > left:
        return ngettext(
            "That is %(days)d day, but only %(left)s of your %(allowance)d vacation days for "
            "%(year)d are left.",
            "That is %(days)d days, but only %(left)s of your %(allowance)d vacation days for "
            "%(year)d are left.",
            days,
        ) % {
            "days": days,
            "left": hours_words(left),
            "allowance": VACATION_DAYS_A_YEAR,
            "year": starts_at.year,
        }
    return None
