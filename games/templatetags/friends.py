"""The friends' parts that shared pages include in one line: a profile's buttons, a table's
invite panel, the lobby's live tables."""

from __future__ import annotations

from django import template
from django.template import Context

from accounts import friends
from accounts.models import User
from games.models import Game
from games.web.friends import LOBBY_LIVE, invite_context, live_context, live_tables

register = template.Library()


@register.inclusion_tag("games/friends/_buttons.html", takes_context=True)
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


@register.inclusion_tag("games/friends/_invite.html", takes_context=True)
def invite_friends(context: Context, game: Game) -> dict[str, object]:
    """The open table's panel for inviting a friend (empty for anyone not seated at it)."""
    if game.status != Game.Status.OPEN:
        return {"game": game, "invitable": []}
    ctx = invite_context(game, context["request"].user)
    return {**ctx, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("games/friends/_live.html")
def watch_live() -> dict[str, object]:
    """The lobby's few running tables anyone may watch, best first."""
    return live_context(live_tables(LOBBY_LIVE), more=True)
