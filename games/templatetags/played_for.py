"""The event a table was played for, named on the table's page in one line:
{% load played_for %}{% played_for game %} ("Round 2 of Sunday Swiss", linked to its page)."""

from __future__ import annotations

from django import template

from games.models import Game
from games.services import played_for as event_of

register = template.Library()


@register.inclusion_tag("games/_played_for.html")
def played_for(game: Game) -> dict[str, object]:
    """The table's event, if it has one (a query for each feature that seats tables)."""
    return {"event": event_of(game)}
