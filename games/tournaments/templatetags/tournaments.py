"""Tournaments on other pages, each in one line: a person's results on their profile
({% tournament_results person %}), the tournament a finished game belonged to in history
({% tournament_of game %}); and the words the tournament pages share (ordinals, points)."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, OuterRef, Subquery
from django.template import Context
from django.utils import formats

from accounts.models import User
from games.boards import epoch_ms as to_epoch_ms
from games.models import Game
from games.tournaments.models import Entrant, Tournament
from games.tournaments.services.base import ordinal as ordinal_words

register = template.Library()

RESULTS_SHOWN = 10


@register.filter
def ordinal(n: int | None) -> str:
    """1st, 2nd, 3rd, 4th ..."""
    return ordinal_words(n) if isinstance(n, int) else ""


@register.filter
def points(value: float | None) -> str:
    """Points as the standings say them: 6, 4.5, 3.33."""
    if value is None:
        return ""
    return f"{round(value, 2):g}".replace(".", str(formats.get_format("DECIMAL_SEPARATOR")))


@register.filter
def epoch_ms(at: datetime | None) -> int | str:
    """A time in milliseconds since the epoch, for the page's countdowns."""
    found = to_epoch_ms(at)
    return "" if found is None else found


@register.inclusion_tag("tournaments/_results.html", takes_context=True)
def tournament_results(context: Context, person: User) -> dict[str, object]:
    """A person's latest tournaments with their place and points (one query); a private one
    only to the person themselves."""
    viewer = context["request"].user
    field = (
        Entrant.objects.filter(tournament=OuterRef("tournament"), withdrawn=False)
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = Entrant.objects.filter(user=person).select_related("tournament")
    if viewer.pk != person.pk:
        rows = rows.exclude(tournament__private=True)
    rows = rows.annotate(field=Subquery(field)).order_by("-tournament__starts_at", "-pk")
    return {"entries": list(rows[:RESULTS_SHOWN]), "person": person}


@register.inclusion_tag("tournaments/_game_line.html")
def tournament_of(game: Game) -> dict[str, object]:
    """The tournament and round a game was played in ("" for any other game); the history
    list reads the table with the game (select_related), so this costs no query."""
    try:
        table = game.tournament_table
    except ObjectDoesNotExist:  # no tournament table: an ordinary game
        return {"table": None}
    tournament: Tournament = table.tournament
    return {"table": table, "tournament": tournament}
