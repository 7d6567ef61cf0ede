"""The lobby's "Find a game" section, included in one line: {% load pairing %}{% find_a_game %}."""

from __future__ import annotations

from django import template
from django.template import Context

from games.pairing.panels import section_context

register = template.Library()


@register.inclusion_tag("pairing/_lobby.html", takes_context=True)
def find_a_game(context: Context) -> dict[str, object]:
    """The forms per game (or the waiting panel), and how many look per game and pace."""
    ctx = section_context(context["request"].user)
    return {**ctx, "csrf_token": context.get("csrf_token")}
