"""The lobby's Watch live box, included in one line: {% load watch %}{% watch_live %}."""

from __future__ import annotations

from django import template

from games.web.watch import LOBBY_LIVE, live_context, live_tables

register = template.Library()


@register.inclusion_tag("games/watch/_live.html")
def watch_live() -> dict[str, object]:
    """The lobby's few running tables anyone may watch, best first."""
    return live_context(live_tables(LOBBY_LIVE), more=True)
