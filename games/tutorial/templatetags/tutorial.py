"""The tutorial's parts of the core's pages, each included in one line ({% load tutorial %}):
the lobby's offer, a table's step, a profile's finished tutorials and How to play's way in. The
core's views know nothing of the tutorial: these tags ask its services themselves."""

from __future__ import annotations

from django import template
from django.template import Context

from accounts.models import User
from games.kinds.base import AnyKind
from games.models import Game
from games.tutorial import services

register = template.Library()


@register.inclusion_tag("tutorial/_offer.html", takes_context=True)
def tutorial_offers(context: Context) -> dict[str, object]:
    """The lobby's offer of a guided first game, for each game the person has not finished."""
    return {
        "tutorials": services.offers(context["request"].user),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("tutorial/_table.html", takes_context=True)
def tutorial_step(context: Context, game: Game) -> dict[str, object]:
    """A guided table's step for this person, with the script that points at it (none else)."""
    return {"tutorial": services.step(game, context["request"].user), "game": game}


@register.inclusion_tag("tutorial/_done.html")
def tutorials_done(person: User) -> dict[str, object]:
    """The games whose tutorial this person finished (they count nowhere else)."""
    return {"tutorials_done": services.finished_kinds(person)}


@register.inclusion_tag("tutorial/_rules_link.html")
def learn_by_playing(spec: AnyKind) -> dict[str, object]:
    """How to play's way into the game's guided first game (only for a game that has one)."""
    return {"spec": spec}
