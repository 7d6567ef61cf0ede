"""People joining and leaving an open table before its start."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts.friends import block_at_table
from accounts.models import User
from games.models import Game, Seat
from games.services.base import NotAllowed, ServiceError, closed_reason, commit_version, lock


def check_join(game: Game, user: User, invite: str | None) -> None:
    """Refuse a join the table cannot take."""
    if game.status != Game.Status.OPEN:
        raise ServiceError(closed_reason(game))
    if game.private and invite != game.invite:
        raise NotAllowed(gettext("This table is private: you need its invite link."))
    seated = set(game.seats.values_list("user_id", flat=True))
    if user.pk in seated:
        raise ServiceError(gettext("You already sit at this table."))
    if len(seated) >= game.capacity:
        raise ServiceError(gettext("Every seat at this table is taken."))
    refused = block_at_table(user, seated)
    if refused:
        raise NotAllowed(refused)


@transaction.atomic
def join(game: Game | int, user: User, invite: str | None = None) -> Seat:
    """Sit the user at an open table."""
    game = lock(game)
    check_join(game, user, invite)
    seat = Seat.objects.create(game=game, user=user)
    commit_version(game, [])
    return seat


def check_leave(game: Game, user: User) -> Seat:
    """The seat a user may leave, or a ServiceError."""
    if game.status == Game.Status.RUNNING:
        raise ServiceError(gettext("You cannot leave a game that has started."))
    if game.status != Game.Status.OPEN:
        raise ServiceError(closed_reason(game))
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise ServiceError(gettext("You do not sit at this table."))
    if user.pk == game.host_id:
        raise ServiceError(gettext("The host cannot leave; the table would have no host."))
    return seat


@transaction.atomic
def leave(game: Game | int, user: User) -> Game:
    """Take the user's seat away before the start; the table as it now stands."""
    game = lock(game)
    check_leave(game, user).delete()
    commit_version(game, [])
    return game
