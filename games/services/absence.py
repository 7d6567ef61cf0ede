"""Relaxed tables: a person who went away while the table waits on them gets a house bot.

A relaxed table has no clock, so nothing else moves it on when a person closes the tab. Every
worker sweep looks for people's seats at running relaxed tables with no socket at that table for
RELAXED_ABSENCE_SECONDS (the socket rows are kept that long, games.services.presence) where the
table has waited on them at least as long (since its newest move, or its start); a house bot
then plays the seat (services.hand_seat_to_bot, reason "absent"), the table is told, and the
person may take the seat back. Several processes may find the same seat: the version re-check
under the row lock, with the absence read again there, lets exactly one hand it over.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef

from games.models import Game, Seat, TableSocket
from games.services import clocks
from games.services.autoplay import inline_bots
from games.services.base import load_state, lock
from games.services.handover import ABSENT, do_hand_seat_to_bot


def absent_since(at: datetime) -> datetime:
    """A person not seen at a table since this time is absent from it."""
    return at - timedelta(seconds=settings.RELAXED_ABSENCE_SECONDS)


def absent_seats(since: datetime) -> list[Seat]:
    """People's seats at running relaxed tables with no socket there since `since` (with their
    game and user)."""
    seen = TableSocket.objects.filter(
        game_id=OuterRef("game_id"), user_id=OuterRef("user_id"), seen_at__gte=since
    )
    seats = Seat.objects.filter(
        game__status=Game.Status.RUNNING,
        game__pace=Game.Pace.RELAXED,
        game__started_at__lte=since,
        bot="",
        resigned=False,
        position__isnull=False,
    ).exclude(Exists(seen))
    # A tutorial waits for its learner however long they are away: it is resumed, not handed on.
    seats = seats.filter(game__guided=False)
    return list(seats.select_related("game", "user").order_by("game_id", "position"))


def waiting_since(game: Game) -> datetime | None:
    """Since when the table has waited as it does now: its newest move, or its start."""
    last = game.actions.order_by("-seq").values_list("created_at", flat=True).first()
    return last or game.started_at


def waits_on_absent(game: Game, seat: Seat, since: datetime) -> bool:
    """Whether the table has waited on this seat since `since`, its person absent all along."""
    if game.status != Game.Status.RUNNING or game.pace != Game.Pace.RELAXED or seat.bot:
        return False
    assert seat.position is not None
    if not clocks.waits_on(game, load_state(game), seat.position):
        return False
    began = waiting_since(game)
    if began is None or began > since:
        return False
    seen = TableSocket.objects.filter(game=game, user_id=seat.user_id, seen_at__gte=since)
    return not seen.exists()


def sweep() -> list[int]:
    """Each worker sweep: hand the seats of people absent while their table waits on them to a
    house bot; the games where it did."""
    since = absent_since(clocks.now())
    handed: list[int] = []
    for seat in absent_seats(since):
        if seat.game_id not in handed and hand_over_absent(seat.game, seat, since):
            handed.append(seat.game_id)
    return handed


def hand_over_absent(game: Game, seat: Seat, since: datetime) -> bool:
    """Hand the seat over if its person is still absent while the table waits; whether it was."""
    if not waits_on_absent(game, seat, since):
        return False
    if not do_hand_over_absent(game.pk, seat.pk, game.version, since):
        return False
    inline_bots(game.pk)
    return True


@transaction.atomic
def do_hand_over_absent(game_id: int, seat_id: int, version: int, since: datetime) -> bool:
    """Lock, check the table is as it was seen and the person still absent, and hand over."""
    game = lock(game_id)
    if game.version != version:
        return False  # the table moved on (or another process handed the seat over)
    seat = Seat.objects.select_related("user").get(pk=seat_id)
    if seat.resigned or not waits_on_absent(game, seat, since):
        return False
    do_hand_seat_to_bot(game, seat, ABSENT)
    return True
