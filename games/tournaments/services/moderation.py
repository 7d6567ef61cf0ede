"""A moderator's two buttons in admin: remove a person from a tournament, stop a tournament."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from games.services import ServiceError
from games.tournaments.models import Entrant, Tournament
from games.tournaments.services.base import bump, lock, now, tell
from games.tournaments.services.entry import leave
from games.tournaments.services.results import recount


def remove(entrant: Entrant | int, moderator: User, reason: str) -> Entrant:
    """Take a person out of a tournament: withdrawn (out of the standings at the end); a table
    they play goes on under the tables' own rules, and counts for the others."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(gettext("Say why the person is removed."))
    pk = entrant if isinstance(entrant, int) else entrant.pk
    with transaction.atomic():
        tournament_id = Entrant.objects.filter(pk=pk).values_list("tournament_id", flat=True)
        found = tournament_id.first()
        if found is None:
            raise ServiceError(gettext("There is no such entrant."))
        tournament = lock(found)
        row = Entrant.objects.select_related("user").get(pk=pk)
        if row.withdrawn:
            raise ServiceError(
                gettext("%(name)s is out of %(tournament)s already.")
                % {"name": str(row.user), "tournament": tournament.name}
            )
        if tournament.status not in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
            raise ServiceError(
                gettext("%(tournament)s is over: its standings stay as they are.")
                % {"tournament": tournament.name}
            )
        leave(row, Entrant.Withdrawn.REMOVED)
        recount(tournament)
        bump(tournament)
        key = f"tournament:{tournament.pk}:removed"
        name = tournament.name
        tell(
            tournament,
            {row.user_id: key},
            lambda: gettext("A moderator removed you from %(tournament)s.") % {"tournament": name},
        )
    return row


def stop(tournament: Tournament | int, moderator: User, reason: str) -> Tournament:
    """Stop a tournament: no table is paired or counted any more, the standings stay as they
    were, and its entrants are told why (the tables under way play on as ordinary games)."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(gettext("Say why the tournament is stopped."))
    with transaction.atomic():
        tournament = lock(tournament)
        if tournament.status not in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
            raise ServiceError(
                gettext("%(tournament)s is not under way.") % {"tournament": tournament.name}
            )
        tournament.status = Tournament.Status.STOPPED
        tournament.stop_reason = reason[:200]
        tournament.finished_at = now()
        bump(tournament, ["status", "stop_reason", "finished_at"])
        people = Entrant.objects.filter(tournament=tournament, withdrawn=False)
        keys = {
            pk: f"tournament:{tournament.pk}:stopped"
            for pk in people.values_list("user_id", flat=True)
        }
        said = {"tournament": tournament.name, "reason": reason}
        tell(
            tournament,
            keys,
            lambda: (gettext("A moderator stopped %(tournament)s: %(reason)s") % said)[:200],
        )
    return tournament
