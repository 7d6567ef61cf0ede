"""Play again: a finished game offers a new table with the same people, game and options.

The new table is an open table whose seats are taken at once: the person who offered has said
yes, the bots always do, and a person who resigned is replaced by a house bot of the level that
finished their game (they left). It starts by itself when every person present has said yes;
one "no" calls it off (a new offer makes a new table). A person who has not answered and has had
no socket at either table for AWAY_SECONDS (counted from the offer at the earliest) is away: they
do not hold the others up, and the rematch is dealt without them as long as the game's minimum
of bakers said yes. Someone going away deals it too: the worker's sweep looks (sweep). Every
change is pushed to both tables: the old table's page links to the new one. Where the answers
stand, the deal and the first clocks held for the people's arrival are rematch_deal.py.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts import friends
from accounts.models import User
from games import events
from games.models import Game, Seat
from games.services import clocks, presence
from games.services.autoplay import inline_bots
from games.services.base import (
    NotAllowed,
    ServiceError,
    commit_version,
    lock,
    seats_in_order,
)
from games.services.hosting import bot_account, check_host
from games.services.played_for import played_for
from games.services.rematch_deal import answers, read_answers, settle


def current_rematch(game: Game) -> Game | None:
    """The newest rematch offered at this finished game, if any (a declined one included)."""
    return game.rematches.order_by("-pk").first()


def check_offer_rematch(game: Game, user: User) -> list[Seat]:
    """The seats of a finished game whose person may offer to play again, or a ServiceError."""
    if game.status != Game.Status.OVER:
        raise ServiceError(gettext("A rematch can be offered once the game is over."))
    seats = seats_in_order(game)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None or mine.user.is_bot:
        raise NotAllowed(gettext("Only the bakers of this game can offer a rematch."))
    if mine.resigned:
        raise NotAllowed(gettext("You resigned this game, so you cannot offer a rematch."))
    event = played_for(game)
    if event is not None:
        raise NotAllowed(
            gettext("This table was played for %(event)s, which seats its own tables.")
            % {"event": event.name}
        )
    blocked, blocking = friends.blocks_among(user, {s.user_id for s in seats} - {user.pk})
    if blocked:
        raise NotAllowed(gettext("A rematch with these players is not available to you."))
    if blocking:
        raise NotAllowed(gettext("You block someone at this table: unblock them to play again."))
    return seats


def rematch(game: Game | int, user: User) -> Game:
    """Offer to play again, or say yes to the offer already made; the new table."""
    new = do_rematch(game, user)
    if new.status == Game.Status.RUNNING:
        inline_bots(new.pk)
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
        rated=old.rated,
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
    new_id, by = new.pk, user.pk
    transaction.on_commit(lambda: events.rematch_offered.tell(new_id, by))
    return start_if_agreed(old, new)


def check_answer(new: Game, user: User) -> Seat:
    """The seat of a person who may answer this rematch now, or a ServiceError."""
    if new.rematch_of_id is None:
        raise ServiceError(gettext("This table is not a rematch."))
    seat = new.seats.filter(user=user).first()
    left_out = seat is None and new.status == Game.Status.RUNNING
    if left_out and Seat.objects.filter(game_id=new.rematch_of_id, user=user, bot="").exists():
        raise ServiceError(gettext("This rematch started without you: you were away."))
    if seat is None or seat.bot:
        raise NotAllowed(gettext("You are not invited to this rematch."))
    if new.status == Game.Status.CANCELLED:
        raise ServiceError(gettext("This rematch was called off."))
    if new.status != Game.Status.OPEN:
        raise ServiceError(gettext("This rematch has already started."))
    return seat


def accept_rematch(new: Game | int, user: User) -> Game:
    """Say yes to a rematch; the last yes starts it (the bots move after the commit)."""
    game = do_accept_rematch(new, user)
    if game.status == Game.Status.RUNNING:
        inline_bots(game.pk)
    return game


@transaction.atomic
def do_accept_rematch(new: Game | int, user: User) -> Game:
    """Lock the finished game then its rematch (always in that order), and say yes."""
    old_id = Game.objects.filter(pk=new if isinstance(new, int) else new.pk).values_list(
        "rematch_of_id", flat=True
    )
    first = old_id.first()
    if first is None:
        raise ServiceError(gettext("This table is not a rematch."))
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
    """Deal the rematch if everyone present said yes; the change is pushed to both tables."""
    if not settle(new, read_answers(new)):
        commit_version(new, [])
    commit_version(old, [])
    return new


def start_rematch(old: Game, new: Game, user: User) -> None:
    """The host deals the locked rematch by hand: only once nobody present is left to answer."""
    check_host(new, user)
    found = read_answers(new)
    if found.waiting:
        waiting = {"names": ", ".join(s.user.username for s in found.waiting)}
        raise ServiceError(gettext("Waiting for %(names)s to accept the rematch.") % waiting)
    if not settle(new, found):
        names = ", ".join(s.user.username for s in found.away)
        raise ServiceError(
            gettext("Too few bakers said yes: waiting for %(names)s to come back.")
            % {"names": names}
        )
    commit_version(old, [])


# The away people each open rematch showed when this process last told the old table.
_told_away: dict[int, frozenset[int]] = {}


def forget_told_away() -> None:
    """Forget which away lists this process told (a fresh database, whose ids start again)."""
    _told_away.clear()


def sweep() -> list[int]:
    """Each worker sweep: deal the open rematches that someone's going away settled; tell the
    finished game's screens when its rematch's away list changed. The rematches dealt."""
    since = presence.away_since(clocks.now())
    offers = list(
        Game.objects.filter(
            status=Game.Status.OPEN, rematch_of__isnull=False, created_at__lte=since
        )
    )
    if not offers:
        _told_away.clear()
        return []
    seats: dict[int, list[Seat]] = {g.pk: [] for g in offers}
    for seat in (
        Seat.objects.filter(game__in=offers).select_related("user").order_by("joined_at", "pk")
    ):
        seats[seat.game_id].append(seat)
    tables = [g.pk for g in offers] + [g.rematch_of_id for g in offers if g.rematch_of_id]
    here = presence.lately_here(tables)
    dealt, told = [], {}
    for offer in offers:
        found = answers(offer, seats[offer.pk], here)
        if found.agreed and settle_later(offer.pk):
            dealt.append(offer.pk)
            continue
        told[offer.pk] = away = frozenset(s.user_id for s in found.away)
        if _told_away.get(offer.pk, frozenset()) != away and offer.rematch_of_id is not None:
            presence.announce(offer.rematch_of_id)
    _told_away.clear()
    _told_away.update(told)
    return dealt


def settle_later(new_id: int) -> bool:
    """Deal a rematch the sweep found agreed, re-read under the locks; whether it was dealt.

    Every process's sweep may find it: the status re-check under the row locks lets one deal.
    """
    dealt = do_settle(new_id)
    if dealt:
        inline_bots(new_id)
    return dealt


@transaction.atomic
def do_settle(new_id: int) -> bool:
    """Lock the finished game then its rematch, and deal it if it is still open and agreed."""
    old_id = Game.objects.filter(pk=new_id).values_list("rematch_of_id", flat=True).first()
    if old_id is None:
        return False
    old = lock(old_id)
    new = lock(new_id)
    if new.status != Game.Status.OPEN or not settle(new, read_answers(new)):
        return False
    commit_version(old, [])
    return True


@transaction.atomic
def decline_rematch(new: Game | int, user: User) -> Game:
    """Say no: the rematch is called off, and both tables say who declined."""
    pk = new if isinstance(new, int) else new.pk
    old_id = Game.objects.filter(pk=pk).values_list("rematch_of_id", flat=True).first()
    if old_id is None:
        raise ServiceError(gettext("This table is not a rematch."))
    old = lock(old_id)
    game = lock(pk)
    seat = check_answer(game, user)
    seat.accepted = False
    seat.save(update_fields=["accepted"])
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    commit_version(game, ["status", "finished_at"])
    commit_version(old, [])
    return game
