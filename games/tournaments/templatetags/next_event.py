"""The lobby's next event, included in one line: {% load next_event %}{% next_event %}."""

from __future__ import annotations

from django import template
from django.db.models import Count, Q
from django.utils.translation import gettext

from games import catalog
from games.services import clocks
from games.tournaments.models import Tournament

register = template.Library()


def next_public() -> Tournament | None:
    """The public tournament that starts soonest (the site's own or anyone's), with how many
    entered it (`entered`): one query."""
    return (
        Tournament.objects.filter(status=Tournament.Status.SCHEDULED, private=False)
        .annotate(entered=Count("entrants", filter=Q(entrants__withdrawn=False)))
        .order_by("starts_at", "pk")
        .first()
    )


def length_words(tournament: Tournament) -> str:
    """ "a Swiss of 5 rounds", "an arena of 45 minutes"."""
    if tournament.is_swiss:
        rounds = tournament.rounds or 0
        return f"a Swiss of {rounds} round{'s' if rounds != 1 else ''}"
    return f"an arena of {tournament.minutes or 0} minutes"


@register.inclusion_tag("tournaments/_next_event.html")
def next_event() -> dict[str, object]:
    """The next event with its countdown (words drawn here; static/js/tournament.js counts on,
    as on the tournaments' own pages) and its page."""
    tournament = next_public()
    if tournament is None:
        return {"event": None}
    at = clocks.now()
    left = (tournament.starts_at - at).total_seconds()
    return {
        "event": tournament,
        "url": tournament.get_absolute_url(),
        "game": catalog.get(tournament.kind).name,
        "length": length_words(tournament),
        "starts_in": gettext("starts in %(left)s") % {"left": clocks.span_words(left)}
        if left > 0
        else gettext("starting now"),
        "starts_ms": int(tournament.starts_at.timestamp() * 1000),
    }
