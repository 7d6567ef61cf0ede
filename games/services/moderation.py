"""Moderation: hand a seat to a bot, abort a game, (de)activate an account, reports.

Every moderator action is a service like any other (check_ then do_, row lock, announced on
commit) and leaves a line in Django's admin log (who, when, what, why). Aborting changes no
engine state and writes no Action row, so a game's action log still rebuilds it move by move.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games import events
from games.models import Game, Report, Seat
from games.services import clocks
from games.services.autoplay import inline_bots
from games.services.base import (
    NotAllowed,
    ServiceError,
    closed_reason,
    commit_version,
    lock,
    lock_user,
)
from games.services.handover import DEACTIVATED, do_keep_seat_for_bot
from games.services.hosting import cancel
from games.services.joining import leave

logger = logging.getLogger(__name__)

REASON_CHARS = 200
NOTE_CHARS = 500
# A person may file this many reports in REPORT_WINDOW; more wait.
REPORTS_PER_WINDOW = 5
REPORT_WINDOW = timedelta(hours=1)


def log_moderation(
    moderator: User, obj: models.Model | Iterable[models.Model], message: str
) -> None:
    """A line in Django's admin log per object: who did what to it, and when (now)."""
    objs = [obj] if isinstance(obj, models.Model) else list(obj)
    LogEntry.objects.log_actions(
        user_id=moderator.pk, queryset=objs, action_flag=CHANGE, change_message=message
    )


def clean_reason(reason: str, missing: str = "") -> str:
    """A moderator's reason, trimmed; refused when empty (in the words `missing`, or "Give a
    reason.") or too long."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError(missing or gettext("Give a reason."))
    if len(reason) > REASON_CHARS:
        raise ServiceError(
            gettext("Keep the reason under %(most)d characters.") % {"most": REASON_CHARS}
        )
    return reason


# --- abort a game -------------------------------------------------------------------------


def check_abort(game: Game, moderator: User, reason: str) -> str:
    """The cleaned reason if this moderator may abort this game now, else a ServiceError."""
    if not moderator.has_perm("games.abort_game"):
        raise NotAllowed(gettext("Only a moderator can abort a game."))
    if game.status != Game.Status.RUNNING:
        open_table = game.status == Game.Status.OPEN
        raise ServiceError(
            gettext("Only a running game can be aborted.") if open_table else closed_reason(game)
        )
    return clean_reason(reason, gettext("Give the reason every player will read."))


@transaction.atomic
def abort(game: Game | int, moderator: User, reason: str) -> Game:
    """Stop a running game for good: no results, no rating moves; every screen shows why."""
    game = lock(game)
    reason = check_abort(game, moderator, reason)
    game.status = Game.Status.ABORTED
    game.abort_reason = reason
    game.aborted_by = moderator
    game.finished_at = timezone.now()
    clocks.clear(game)  # no stand-in moves, no countdown says "time is up"
    commit_version(game, ["status", "abort_reason", "aborted_by", "finished_at"])
    log_moderation(moderator, game, f"Aborted: {reason}")
    return game


# --- deactivate and reactivate an account -------------------------------------------------


def check_account_change(moderator: User, person: User) -> None:
    """Refuse a change to an account that is not a moderator's to change."""
    if not moderator.has_perm("accounts.deactivate_user"):
        raise NotAllowed(gettext("Only a moderator can do that."))
    if person.pk == moderator.pk:
        raise ServiceError(gettext("You cannot do that to your own account."))
    if person.is_bot:
        raise ServiceError(gettext("House bots are not people; they have no account to change."))
    if (person.is_superuser or person.is_staff) and not moderator.is_superuser:
        raise NotAllowed(gettext("Only a superuser can change a staff or superuser account."))


def give_up_tables(person: User, reason: str) -> list[int]:
    """Bots take the person's running seats for good, their open tables are left (or cancelled,
    when they host them); the games whose seats bots took just now (they move after the commit).

    Inside the caller's transaction, with the person's row locked; games are locked in id order.
    """
    handed = []
    seats = Seat.objects.filter(
        user=person, game__status__in=[Game.Status.RUNNING, Game.Status.OPEN]
    ).select_related("game")
    for seat in sorted(seats, key=lambda s: s.game_id):
        game = seat.game
        if game.status == Game.Status.RUNNING and seat.position is not None:
            # Seats a bot already plays (the person left or was away) are kept for it too,
            # so reactivating the account does not let the person take them back.
            if do_keep_seat_for_bot(game.pk, seat.pk, reason):
                handed.append(game.pk)
        elif game.status == Game.Status.OPEN:
            if game.host_id == person.pk:
                cancel(game, person)
            else:
                leave(game, person)
    return handed


def deactivate(person: User | int, moderator: User, reason: str) -> User:
    """Close an account: it cannot log in, its sockets close, bots take its running seats."""
    person, handed = do_deactivate(person, moderator, reason)
    for game_id in handed:
        inline_bots(game_id)
    return person


@transaction.atomic
def do_deactivate(person: User | int, moderator: User, reason: str) -> tuple[User, list[int]]:
    """The account, its seats and tables in one transaction; the games whose seats bots took.

    The person's row is locked first, then their games in id order (see base.lock_user).
    """
    person = lock_user(getattr(person, "pk", person))
    check_account_change(moderator, person)
    if not person.is_active:
        raise ServiceError(gettext("%(name)s is already deactivated.") % {"name": person.username})
    reason = clean_reason(reason)
    person.is_active = False
    person.save(update_fields=["is_active"])
    handed = give_up_tables(person, DEACTIVATED)
    # The save above already asked the sockets to re-check; ask again once it is committed,
    # so none re-checks before the change is visible to it.

    person_id = person.pk
    transaction.on_commit(lambda: events.session_changed.tell([person_id]))
    log_moderation(moderator, person, f"Deactivated: {reason}")
    return person, handed


@transaction.atomic
def reactivate(person: User | int, moderator: User, reason: str) -> User:
    """Open a deactivated account again: it can log in (its old seats stay with the bots)."""
    person = lock_user(getattr(person, "pk", person))
    check_account_change(moderator, person)
    if person.is_active:
        raise ServiceError(gettext("%(name)s is active already.") % {"name": person.username})
    reason = clean_reason(reason)
    person.is_active = True
    person.save(update_fields=["is_active"])
    log_moderation(moderator, person, f"Reactivated: {reason}")
    return person


# --- reports ------------------------------------------------------------------------------

REPORTABLE = (Game.Status.RUNNING, Game.Status.OVER, Game.Status.ABORTED)


def reportable_people(game: Game, reporter: User) -> list[User]:
    """The people (no bots) who sat at this game, the reporter left out."""
    seats = game.seats.select_related("user").order_by("position", "pk")
    return [s.user for s in seats if not s.user.is_bot and s.user_id != reporter.pk]


def check_report(
    game: Game, reporter: User, reported_id: int | None, reason: str, note: str
) -> User:
    """The person to report, or a ServiceError: a clear reason, a short note, not too often."""
    if not reporter.is_authenticated or not reporter.is_active:
        raise NotAllowed(gettext("Log in to report a player."))
    if game.status not in REPORTABLE:
        raise ServiceError(gettext("You can report a player once the game has started."))
    reported = next((p for p in reportable_people(game, reporter) if p.pk == reported_id), None)
    if reported is None:
        raise ServiceError(gettext("Choose a person who sat at this game."))
    if reason not in Report.Reason.values:
        raise ServiceError(gettext("Choose a reason from the list."))
    if len(note) > NOTE_CHARS:
        raise ServiceError(
            gettext("Keep the note under %(most)d characters.") % {"most": NOTE_CHARS}
        )
    mine = Report.objects.filter(reporter=reporter)
    if mine.filter(game=game, reported=reported, status=Report.Status.OPEN).exists():
        raise ServiceError(
            gettext("You already reported %(name)s at this game.") % {"name": reported.username}
        )
    recent = mine.filter(created_at__gte=timezone.now() - REPORT_WINDOW).count()
    if recent >= REPORTS_PER_WINDOW:
        raise ServiceError(gettext("You have sent many reports lately; try again in an hour."))
    return reported


@transaction.atomic
def report(
    game: Game | int, reporter: User, reported_id: int | None, reason: str, note: str = ""
) -> Report:
    """File a report for the moderators."""
    # The reporter's row is locked, so two quick posts cannot both pass the rate limit; it is
    # locked before the game, the order deactivation takes them in (see base.lock_user).
    if reporter.is_authenticated:
        lock_user(reporter)
    game = lock(game)
    note = " ".join((note or "").split())
    reported = check_report(game, reporter, reported_id, reason, note)
    return Report.objects.create(
        game=game, reporter=reporter, reported=reported, reason=reason, note=note
    )


def check_handle_report(report: Report, moderator: User, status: str) -> None:
    """Refuse a report change this moderator may not make."""
    if not moderator.has_perm("games.change_report"):
        raise NotAllowed(gettext("Only a moderator can handle reports."))
    if status not in (Report.Status.DISMISSED, Report.Status.ACTED):
        raise ServiceError(gettext("A report is either dismissed or acted on."))
    if report.status != Report.Status.OPEN:
        already: dict[str, str] = {
            Report.Status.DISMISSED: gettext("This report was already dismissed."),
            Report.Status.ACTED: gettext("This report was already acted on."),
        }
        raise ServiceError(already.get(report.status, gettext("This report was already handled.")))


@transaction.atomic
def handle_report(
    report: Report | int, moderator: User, status: str, resolution: str = ""
) -> Report:
    """Close a report as dismissed or acted on, with who and when (and the admin log)."""
    report = Report.objects.select_for_update().get(pk=getattr(report, "pk", report))
    check_handle_report(report, moderator, status)
    resolution = " ".join((resolution or "").split())[:NOTE_CHARS]
    report.status = status
    report.handled_by = moderator
    report.handled_at = timezone.now()
    report.resolution = resolution
    report.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
    done = report.get_status_display()
    log_moderation(moderator, report, f"{done}{': ' + resolution if resolution else ''}")
    return report
