"""How long ago something happened, in words, the same on every page."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()

JUST_NOW = timedelta(minutes=1)


@register.filter
def ago(when: datetime | None) -> str:
    """ "just now" under a minute, else as Django's timesince says it ("5 minutes ago")."""
    if when is None:
        return ""
    if timezone.now() - when < JUST_NOW:
        return "just now"
    return f"{timesince(when)} ago"
