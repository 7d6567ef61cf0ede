"""The house table in the lobby's Watch live box, when no person's game may be watched:
{% load housetable %}{% house_table %}."""

from __future__ import annotations

from django import template

from games.housetable.services import showing

register = template.Library()


@register.inclusion_tag("housetable/_watch.html")
def house_table() -> dict[str, object]:
    """The house bots' game running now (or the words that none runs)."""
    return {"house": showing()}
