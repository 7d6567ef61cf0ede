"""Play again: a finished game offers a new table with the same people, game and options.

The new table is an open table whose seats are taken at once: the person who offered has said
yes, the bots always do, and a person who resigned is replaced by a house bot of the level that
finished their game (they left). It starts by itself when the last person says yes; one "no"
calls it off (a new offer makes a new table). Every change is pushed to both tables: the old
table's page links to the new one.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from games.services.base import NotAllowed, ServiceError, bump, lock, seats_in_order
from games.services.play import bots_after_commit
from games.services.tables import bot_account, deal


def current_rematch(game: Game) -> Game | None:
    """The newest rematch offered at this finished game, if any (a declined one included)."""
    return game.rematches.order_by("-pk").first()


def check_offer_rematch(game: Game, user: User) -> list[Seat]:
    """The seats of a finished game whose person may offer to play again, or a ServiceError."""
    if game.status != Game.Status.OVER:
        raise ServiceError("A rematch can be offered once the game is over.")
    seats = seats_in_order(game)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None or mine.user.is_bot:
        raise NotAllowed("Only the bakers of this game can offer a rematch.")
    if mine.resigned:
        raise NotAllowed("You resigned this game, so you cannot offer a rematch.")
    return seats


def rematch(game: Game | int, user: User) -> Game:
    """Offer to play again, or say yes to the offer already made; the new table."""
    new = do_rematch(game, user)
    if new.status == Game.Status.RUNNING:
        bots_after_commit(new.pk)
    return new


@transaction.atomic
def do_rematch(game: Game | int, user: User) -> Game:
    """Offer (or accept) the rematch of a finished game in one transaction."""
    old = lock(game)
    seats = check_offer_rematch(old, user)
    offered = current_rematch(old)
    if offered is not None and offered.status != Game.Status.CANCELLED:
        return do_accept(old, lock(offered), user)
    new = Game.objects.create(
        kind=old.kind,
        host=user,
        capacity=old.capacity,
        options=dict(old.options),
        private=old.private,
        watchers=old.watchers,
        spectator_chat=old.spectator_chat,
        pace=old.pace,
        rematch_of=old,
    )
    taken = {s.user_id for s in seats if not s.resigned}
    for seat in seats:
        if seat.resigned:
            # The person left; the house bot that finished their game plays again.
            bot = bot_account(seat.bot, taken)
            taken.add(bot.pk)
            Seat.objects.create(game=new, user=bot, bot=seat.bot)
        else:
            said_yes = bool(seat.bot) or seat.user_id == user.pk
            Seat.objects.create(game=new, user=seat.user, bot=seat.bot, accepted=said_yes or None)
    return start_if_agreed(old, new)


def check_answer(new: Game, user: User) -> Seat:
    """The seat of a person who may answer this rematch now, or a ServiceError."""
    if new.rematch_of_id is None:
        raise ServiceError("This table is not a rematch.")
    seat = new.seats.filter(user=user).first()
    if seat is None or seat.bot:
        raise NotAllowed("You are not invited to this rematch.")
    if new.status == Game.Status.CANCELLED:
        raise ServiceError("This rematch was called off.")
    if new.status != Game.Status.OPEN:
        raise ServiceError("This rematch has already started.")
    return seat


def accept_rematch(new: Game | int, user: User) -> Game:
    """Say yes to a rematch; the last yes starts it (the bots move after the commit)."""
    game = do_accept_rematch(new, user)
    if game.status == Game.Status.RUNNING:
        bots_after_commit(game.pk)
    return game


@transaction.atomic
def do_accept_rematch(new: Game | int, user: User) -> Game:
    """Lock the finished game then its rematch (always in that order), and say yes."""
    old_id = Game.objects.filter(pk=new if isinstance(new, int) else new.pk).values_list(
        "rematch_of_id", flat=True
    )
    first = old_id.first()
    if first is None:
        raise ServiceError("This table is not a rematch.")
    old = lock(first)
    return do_accept(old, lock(new), user)


def do_accept(old: Game, new: Game, user: User) -> Game:
    """Say yes at the locked rematch table; start it when nobody is left to answer."""
    seat = check_answer(new, user)
    if not seat.accepted:
        seat.accepted = True
        seat.save(update_fields=["accepted"])
    return start_if_agreed(old, new)


def start_if_agreed(old: Game, new: Game) -> Game:
    """Deal the rematch if every seat said yes; the change is pushed to both tables."""
    seats = seats_in_order(new)
    if all(s.accepted for s in seats):
        deal(new, seats)
    else:
        bump(new, [])
    bump(old, [])
    return new


@transaction.atomic
def decline_rematch(new: Game | int, user: User) -> Game:
    """Say no: the rematch is called off, and both tables say who declined."""
    pk = new if isinstance(new, int) else new.pk
    old_id = Game.objects.filter(pk=pk).values_list("rematch_of_id", flat=True).first()
    if old_id is None:
        raise ServiceError("This table is not a rematch.")
    old = lock(old_id)
    game = lock(pk)
    seat = check_answer(game, user)
    seat.accepted = False
    seat.save(update_fields=["accepted"])
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    bump(game, ["status", "finished_at"])
    bump(old, [])
    return game
