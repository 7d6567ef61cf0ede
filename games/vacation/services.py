"""Vacations: a person takes a few days away and their turn-based clocks stand still.

Within the yearly allowance (accounts.models: VACATION_DAYS_A_YEAR, VACATION_MOST_AT_ONCE). The
person's row is locked first, then each of their running turn-based tables (older first): a
running clock's deadline moves on by the part of the vacation still to come, and every such
table gets a new version, so rivals' screens say "on vacation until ...". Clocks that start
later read the vacation themselves (games.services.clocks.wind). Live tables are not touched.
A vacation may be ended early (or called off before it starts): the deadlines it pushed come back
by the part not taken, and only the hours taken count against the allowance (each hour begun
counts whole: games.vacation.allowance).

The vacation's row and its allowance stay in accounts (accounts.models.Vacation): the clocks
under the services read them. The tables are changed through the core's one verb for it,
games.services.retime_turn_based.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from accounts.models import User, Vacation
from games.services import ServiceError, clocks, lock_user, retime_turn_based
from games.vacation.allowance import vacation_refusal


def vacation_starts_at(on: date, at: datetime) -> datetime:
    """When a vacation that starts on that day starts: now for today, else at its midnight UTC."""
    if on <= at.date():
        return at
    return datetime.combine(on, time.min, tzinfo=UTC)


@transaction.atomic
def take_vacation(user: User, on: date, days: int) -> Vacation:
    """Take `days` days away from `on`; a ServiceError with the reason when it cannot be."""
    lock_user(user)
    at = clocks.now()
    starts_at = vacation_starts_at(on, at)
    refusal = vacation_refusal(user.pk, starts_at, days, at)
    if refusal is not None:
        raise ServiceError(refusal)
    ends_at = starts_at + timedelta(days=days)
    # One that starts now is told by the versions below; a later one by the sweep when it starts.
    told = STARTED if starts_at <= at else ""
    vacation = Vacation.objects.create(
        user=user, starts_at=starts_at, ends_at=ends_at, days=days, told=told
    )
    retime_turn_based(user, lambda deadline: clocks.paused(deadline, at, starts_at, ends_at))
    return vacation


@transaction.atomic
def end_vacation(user: User, vacation_id: int) -> Vacation | None:
    """End the person's vacation now (None: it had not started and is called off)."""
    lock_user(user)
    vacation = Vacation.objects.filter(pk=vacation_id, user=user).first()
    at = clocks.now()
    if vacation is None or vacation.ends_at <= at:
        raise ServiceError(gettext("That vacation is over already."))
    cut = max(vacation.starts_at, at)
    ends_at = vacation.ends_at

    def given_back(deadline: datetime) -> datetime:
        """A deadline the vacation pushed comes back by the part not taken."""
        return deadline - (ends_at - cut) if deadline >= ends_at else deadline

    retime_turn_based(user, given_back)
    if cut == vacation.starts_at:
        vacation.delete()
        return None
    vacation.ends_at = at  # the allowance counts the hours up to here
    vacation.days = math.ceil((at - vacation.starts_at) / timedelta(days=1))
    vacation.told = ENDED
    vacation.save(update_fields=["ends_at", "days", "told"])
    return vacation


STARTED, ENDED = "started", "ended"


def announce_vacations() -> int:
    """Each sweep: vacations that started or ended since their person's turn-based tables were
    last told give those tables a new version, so a rival's open page says "on vacation until"
    from its first day (taken days before, it started with no move to show it) and stops saying
    it after its last; how many were told."""
    at = clocks.now()
    due = Vacation.objects.exclude(told=ENDED).filter(
        Q(ends_at__lte=at) | Q(told="", starts_at__lte=at)
    )
    told = 0
    for vacation_id in due.order_by("pk").values_list("pk", flat=True):
        told += tell_tables(vacation_id, at)
    return told


@transaction.atomic
def tell_tables(vacation_id: int, at: datetime) -> int:
    """Bump the person's running turn-based tables for this vacation's start or end, once
    (1), or nothing if another process told them first (0)."""
    user_id = Vacation.objects.filter(pk=vacation_id).values_list("user_id", flat=True).first()
    if user_id is None:
        return 0
    user = lock_user(user_id)
    vacation = Vacation.objects.filter(pk=vacation_id).first()  # as it is under the lock
    if vacation is None:
        return 0  # called off meanwhile: its tables were told then
    now_says = ENDED if vacation.ends_at <= at else STARTED
    if vacation.told == now_says:
        return 0
    retime_turn_based(user, lambda deadline: deadline)  # a new version each, nothing moved
    vacation.told = now_says
    vacation.save(update_fields=["told"])
    return 1
