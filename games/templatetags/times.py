"""How long ago something happened, in words, the same on every page."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext, npgettext_lazy

register = template.Library()

JUST_NOW = timedelta(minutes=1)
# A time past in each language's own words (German's dative: "vor 5 Tagen"), for timesince.
TIME_PAST = {
    "year": npgettext_lazy("time past", "%(num)d year", "%(num)d years", "num"),
    "month": npgettext_lazy("time past", "%(num)d month", "%(num)d months", "num"),
    "week": npgettext_lazy("time past", "%(num)d week", "%(num)d weeks", "num"),
    "day": npgettext_lazy("time past", "%(num)d day", "%(num)d days", "num"),
    "hour": npgettext_lazy("time past", "%(num)d hour", "%(num)d hours", "num"),
    "minute": npgettext_lazy("time past", "%(num)d minute", "%(num)d minutes", "num"),
}


@register.filter
def ago(when: datetime | None) -> str:
    """ "just now" under a minute, else as Django's timesince says it ("5 minutes ago"), in the
    reader's language (TIME_PAST)."""
    if when is None:
        return ""
    if timezone.now() - when < JUST_NOW:
        return gettext("just now")
    since = timesince(when, time_strings=TIME_PAST)  # type: ignore[arg-type]  # lazy, as Django's own
    return gettext("%(time)s ago") % {"time": since}
