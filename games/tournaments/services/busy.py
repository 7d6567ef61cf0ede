"""One person, one live table: who plays a live-clock table now (an arena skips them until they
are free), and the tournaments one may be entered in at once (how many, and no two live ones
whose times overlap)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext, ngettext

from accounts.models import User
from games.models import TURN_BASED, Game, Seat
from games.services import ServiceError
from games.tournaments.models import Entrant, Tournament

NOT_OVER = (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)


def at_live_tables(user_ids: Iterable[int]) -> set[int]:
    """Those of these people who hold a seat at a live-clock table under way (of any kind:
    quick pairing's, a tournament's, a friend's table, a practice against bots)."""
    seats = Seat.objects.filter(
        user_id__in=list(user_ids), bot="", game__status=Game.Status.RUNNING
    ).exclude(game__pace__in=TURN_BASED)
    return set(seats.values_list("user_id", flat=True))


def span(tournament: Tournament) -> tuple[datetime, datetime | None]:
    """When a tournament's tables may run: from its start to an arena's end; a Swiss's end is
    not known before it comes (None: until it is over)."""
    start = tournament.started_at or tournament.starts_at
    if tournament.ends_at is not None:
        return start, tournament.ends_at
    if tournament.is_arena:
        return start, start + timedelta(minutes=tournament.minutes or 0)
    return start, None


def overlap(one: Tournament, other: Tournament) -> bool:
    """Whether the two tournaments' times overlap (see span)."""
    (a, a_end), (b, b_end) = span(one), span(other)
    return (b_end is None or a < b_end) and (a_end is None or b < a_end)


def check_entries(tournament: Tournament, user: User) -> None:
    """Refuse, in words, a person entered in TOURNAMENT_ENTRIES_AT_ONCE tournaments not over yet,
    or, for a live tournament, in another live one whose times overlap it: their tables would
    start together, and one person plays one live table at a time. (The person's row is locked:
    two joins at once cannot both pass.)"""
    entered = Tournament.objects.filter(
        entrants__in=Entrant.objects.filter(user=user, withdrawn=False), status__in=NOT_OVER
    ).exclude(pk=tournament.pk)
    most: int = settings.TOURNAMENT_ENTRIES_AT_ONCE
    if entered.count() >= most:
        raise ServiceError(
            ngettext(
                "You are in %(most)d tournament that is not over yet: leave it, or wait until it "
                "ends, before you join another.",
                "You are in %(most)d tournaments that are not over yet: leave one, or wait until "
                "one ends, before you join another.",
                most,
            )
            % {"most": most}
        )
    if tournament.pace in TURN_BASED:
        return
    for other in entered.exclude(pace__in=TURN_BASED).order_by("starts_at"):
        if overlap(tournament, other):
            raise ServiceError(
                gettext(
                    "You are in %(tournament)s, played live at the same time as this one: you "
                    "can play only one live table at a time, so leave it first to join this one."
                )
                % {"tournament": other.name}
            )
