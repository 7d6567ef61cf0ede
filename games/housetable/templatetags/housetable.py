"""The house table in the lobby's Watch live box, when no rated game of people may be watched
(above any practice table): {% load housetable %}{% house_table others %}."""

from __future__ import annotations

from django import template

from games.housetable.services import showing

register = template.Library()


@register.inclusion_tag("housetable/_watch.html")
def house_table(others: object = None) -> dict[str, object]:
    """The house bots' game running now (or, with no other table to list, the words that none
    runs)."""
    return {"house": showing(), "others": bool(others)}
