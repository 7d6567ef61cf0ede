"""The friends' parts that shared pages include in one line ({% load friends %}): a profile's
buttons ({% friend_buttons person %}), a table's invite panel ({% invite_friends game %})."""

from __future__ import annotations

from django import template
from django.template import Context

from accounts import friends
from accounts.models import User
from games.friends.views import invite_context
from games.models import Game

register = template.Library()


@register.inclusion_tag("friends/_buttons.html", takes_context=True)
def friend_buttons(context: Context, person: User) -> dict[str, object]:
    """Add friend, Accept, Remove, Block, Unblock: what the viewer may do about this person."""
    viewer = context["request"].user
    shown = viewer.is_authenticated and not person.is_bot and person.is_active
    return {
        "person": person,
        "shown": shown,
        "me": shown and viewer.pk == person.pk,
        "relation": friends.relation(viewer, person) if shown and viewer.pk != person.pk else None,
        "next": context["request"].get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("friends/_invite.html", takes_context=True)
def invite_friends(context: Context, game: Game) -> dict[str, object]:
    """The open table's panel for inviting a friend (empty for anyone not seated at it)."""
    if game.status != Game.Status.OPEN:
        return {"game": game, "invitable": []}
    ctx = invite_context(game, context["request"].user)
    return {**ctx, "csrf_token": context.get("csrf_token")}
