"""What a table's host does before its start: seat and remove bots, cancel the table."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from accounts.names import bot_name
from games.models import Game, Seat
from games.services.base import NotAllowed, ServiceError, closed_reason, commit_version, lock


def bot_account(level: str, taken: set[int]) -> User:
    """A house bot of that level not yet at the table, found by its bot flag, never by name."""
    index = 0
    while True:
        index += 1
        try:
            user, _ = User.objects.get_or_create(username=bot_name(level, index), is_bot=True)
        except IntegrityError:
            continue  # a person holds this name (taken before bot names were kept)
        if user.pk not in taken:
            if user.has_usable_password():
                user.set_unusable_password()
                user.save(update_fields=["password"])
            return user


def check_host(game: Game, user: User) -> None:
    """Refuse anyone but the host of an open table."""
    if user.pk != game.host_id:
        raise NotAllowed(gettext("Only the host can do that."))
    if game.status != Game.Status.OPEN:
        raise ServiceError(closed_reason(game))


@transaction.atomic
def add_bot(game: Game | int, host: User, level: str) -> Seat:
    """Seat a bot of the given level in an empty seat."""
    game = lock(game)
    check_host(game, host)
    if level not in game.spec.bot_levels:
        raise ServiceError(gettext("There is no %(level)s bot.") % {"level": repr(level)})
    taken = set(game.seats.values_list("user_id", flat=True))
    if len(taken) >= game.capacity:
        raise ServiceError(gettext("Every seat at this table is taken."))
    seat = Seat.objects.create(game=game, user=bot_account(level, taken), bot=level)
    commit_version(game, [])
    return seat


@transaction.atomic
def remove_bot(game: Game | int, host: User, seat_id: int) -> Game:
    """Take a bot away from the table; the table as it now stands."""
    game = lock(game)
    check_host(game, host)
    seat = game.seats.filter(pk=seat_id).exclude(bot="").first()
    if seat is None:
        raise ServiceError(gettext("There is no such bot at this table."))
    seat.delete()
    commit_version(game, [])
    return game


@transaction.atomic
def cancel(game: Game | int, host: User) -> Game:
    """The host closes an open table: it leaves the lobby and says it was cancelled.

    A rematch's finished game is locked first (the rematch services' order) and told too.
    """
    pk = game if isinstance(game, int) else game.pk
    finished = Game.objects.filter(pk=pk).values_list("rematch_of_id", flat=True).first()
    old = lock(finished) if finished is not None else None
    game = lock(pk)
    check_host(game, host)
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    commit_version(game, ["status", "finished_at"])
    if old is not None:
        commit_version(old, [])
    return game
