"""A seat handed to a house bot, and taken back: why (left, absent, deactivated, deleted), the
hand-over itself, its checks, and each in one transaction.

The verbs that then let the bots answer (resign, hand_seat_to_bot) are in leaving.py; a stand-in's
clock hands a seat over from clocks/stand_in.py, a relaxed table's absence from absence.py.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_noop as N_

from accounts.models import User
from games.models import Game, Seat
from games.services import clocks
from games.services.base import (
    NotAllowed,
    ServiceError,
    closed_reason,
    commit_version,
    load_state,
    lock,
    notice,
)
from games.services.move_log import seated

LEFT = "left"
ABSENT = "absent"
DEACTIVATED = "deactivated"
DELETED = "deleted"
HANDED_OVER_WHY = {
    LEFT: gettext_lazy("You resigned this game."),
    ABSENT: gettext_lazy("Your time ran out three moves in a row."),
    DEACTIVATED: gettext_lazy("Your account was deactivated."),
    DELETED: gettext_lazy("You deleted your account."),
}
HAND_OVER_NOTICES = {
    LEFT: N_("%(name)s left: a %(bot)s bot plays %(seat)s to the end."),
    ABSENT: N_(
        "%(name)s's time ran out three moves in a row: a %(bot)s bot plays %(seat)s to the end."
    ),
    DEACTIVATED: N_("%(name)s's account was closed: a %(bot)s bot plays %(seat)s to the end."),
    # Named by no one: the person is gone, and their deleted name would read as a person's.
    DELETED: N_("A baker left Bakehouse: a %(bot)s bot plays %(seat)s to the end."),
}


def handed_over_why(game: Game, seat: Seat) -> str:
    """Why a house bot plays this seat, told to its person (away at a relaxed table: no clock)."""
    reason = handed_over(seat)
    if reason == ABSENT and game.pace == Game.Pace.RELAXED:
        return gettext("You were away while the table waited on you.")
    return str(HANDED_OVER_WHY[reason])


def handed_over(seat: Seat) -> str:
    """Why a house bot plays this seat (seats resigned before reasons were kept: left)."""
    return (seat.handed_over or LEFT) if seat.resigned else ""


def hand_over(
    game: Game, state: object, seats: Mapping[int, Seat], seat: Seat, reason: str
) -> None:
    """A house bot takes the seat for the rest of the game (the game row is locked; the caller
    commits the version)."""
    seat.resigned = True
    seat.bot = game.spec.house_bot
    seat.handed_over = reason
    seat.stand_ins = 0
    seat.save(update_fields=["resigned", "bot", "handed_over", "stand_ins"])
    assert seat.position is not None
    clocks.wind(game, state, {seat.position: seat}, set(), clocks.now())
    words = HAND_OVER_NOTICES[reason]
    if reason == ABSENT and game.pace == Game.Pace.RELAXED:  # no clock: gone while it waited
        words = N_(
            "%(name)s was away while the table waited: a %(bot)s bot plays %(seat)s to the end."
        )
    values = {"name": seat.user.username, "bot": seat.bot, "seat": seat.name}
    # Only the values the sentence says are kept: a deleted person's name is not (DELETED).
    notice(game, words, {k: v for k, v in values.items() if f"%({k})s" in words})


def check_hand_over(game: Game, seat: Seat, reason: str) -> None:
    """Refuse to hand a seat to a bot when it cannot be."""
    if reason not in HAND_OVER_NOTICES:
        raise ServiceError(
            gettext("No seat is handed to a bot for %(reason)s.") % {"reason": repr(reason)}
        )
    if seat.game_id != game.pk:
        raise ServiceError(gettext("That seat is not at this table."))
    if game.status != Game.Status.RUNNING:
        raise ServiceError(closed_reason(game))
    if seat.bot:
        raise ServiceError(gettext("A bot already plays that seat."))


@transaction.atomic
def do_hand_seat_to_bot(game: Game | int, seat: Seat | int, reason: str) -> Game:
    """Hand the seat over in one transaction."""
    game = lock(game)
    seat_id = seat if isinstance(seat, int) else seat.pk
    seats = seated(game)
    found = next((s for s in seats.values() if s.pk == seat_id), None)
    if found is None:
        raise ServiceError(gettext("That seat is not at this table."))
    check_hand_over(game, found, reason)
    hand_over(game, load_state(game), seats, found, reason)
    commit_version(game, ["notices"], bots=True)
    return game


@transaction.atomic
def do_keep_seat_for_bot(game: Game | int, seat: Seat | int, reason: str) -> bool:
    """A house bot plays the seat to the end for this reason, even one it already plays (the
    person left or was away): that seat can then no longer be taken back. Whether a bot took
    the seat just now (it moves after the commit)."""
    game = lock(game)
    seat_id = seat if isinstance(seat, int) else seat.pk
    found = game.seats.filter(pk=seat_id).first()
    if game.status != Game.Status.RUNNING or found is None or found.position is None:
        return False
    if not found.bot:
        do_hand_seat_to_bot(game, found, reason)
        return True
    if (found.resigned, found.handed_over) != (True, reason):
        found.resigned, found.handed_over = True, reason
        found.save(update_fields=["resigned", "handed_over"])
    return False


def check_resign(game: Game, user: User) -> Seat:
    """The seat a person may give up now, or a ServiceError."""
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed(gettext("You do not sit at this game."))
    if game.status == Game.Status.OPEN:
        raise ServiceError(gettext("This game has not started yet."))
    if game.status != Game.Status.RUNNING:
        raise ServiceError(closed_reason(game))
    if seat.resigned:
        raise ServiceError(gettext("You have already resigned this game."))
    if seat.bot:
        raise ServiceError(gettext("A bot cannot resign."))
    return seat


@transaction.atomic
def do_resign(game: Game | int, user: User) -> Game:
    """Hand the seat to a house bot in one transaction; the bot moves after the commit
    (leaving.resign)."""
    game = lock(game)
    seat = check_resign(game, user)
    seats = seated(game)
    assert seat.position is not None
    hand_over(game, load_state(game), seats, seats[seat.position], LEFT)
    commit_version(game, ["notices"], bots=True)
    return game


def check_take_back(game: Game, user: User) -> Seat:
    """The seat a person who left (or was away) may take back from the bot, or a ServiceError."""
    seat = game.seats.filter(user=user).first()
    if seat is None or seat.position is None:
        raise NotAllowed(gettext("You do not sit at this game."))
    if game.status != Game.Status.RUNNING:
        raise ServiceError(closed_reason(game))
    if not seat.resigned:
        raise ServiceError(gettext("You already play your seat."))
    if handed_over(seat) in (DEACTIVATED, DELETED) or not user.is_active:
        raise NotAllowed(gettext("This seat cannot be taken back."))
    return seat


@transaction.atomic
def take_seat_back(game: Game | int, user: User) -> Game:
    """A person who left comes back before the end: the bot gives the seat back."""
    game = lock(game)
    position = check_take_back(game, user).position
    assert position is not None
    seats = seated(game)
    seat = seats[position]
    seat.resigned, seat.bot, seat.handed_over, seat.stand_ins = False, "", "", 0
    seat.save(update_fields=["resigned", "bot", "handed_over", "stand_ins"])
    clocks.wind(game, load_state(game), {position: seat}, set(), clocks.now())
    words = N_("%(name)s is back and plays %(seat)s again.")
    notice(game, words, {"name": user.username, "seat": seat.name})
    commit_version(game, ["notices"])
    return game
