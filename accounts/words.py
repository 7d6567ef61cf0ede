"""A person's allowances in words, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext


def hours_words(hours: int) -> str:
    """Hours of the allowance in days and hours ("20 days and 23 hours", "5 hours")."""
    days, rest = divmod(max(0, hours), 24)
    said_days = ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
    said_hours = ngettext("%(hours)d hour", "%(hours)d hours", rest) % {"hours": rest}
    if days and rest:
        return gettext("%(days)s and %(hours)s") % {"days": said_days, "hours": said_hours}
    return said_hours if rest else said_days
