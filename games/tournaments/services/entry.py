"""Taking part in a tournament: join, withdraw, pause and resume, presence."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext, ngettext

from accounts.friends import blocks_among
from accounts.models import Block, Rating, User
from accounts.ratings import new_rating
from games import catalog
from games.models import Seat
from games.services import LEFT, NotAllowed, ServiceError, hand_seat_to_bot
from games.tournaments import access, pairs
from games.tournaments.models import Entrant, Tournament
from games.tournaments.services import busy
from games.tournaments.services.base import bump, lock, lock_person, now

LATE_JOIN_CUTOFF = timedelta(minutes=10)
"""An arena takes late entrants until this long before its end."""


# --- join ---------------------------------------------------------------------------------


def rating_of(user: User, kind: str) -> tuple[int, int]:
    """The person's displayed rating at this game and their rated games of it."""
    found = Rating.objects.filter(user=user, kind=kind).values_list("rating", "games").first()
    if found is None:
        return new_rating(user.pk, kind).rating, 0
    return found


def check_open(tournament: Tournament) -> None:
    """Refuse a change to a tournament that is over."""
    if tournament.status == Tournament.Status.FINISHED:
        raise ServiceError(gettext("This tournament is over."))
    if tournament.status == Tournament.Status.CANCELLED:
        raise ServiceError(gettext("This tournament was cancelled."))
    if tournament.status == Tournament.Status.STOPPED:
        raise ServiceError(stopped_words(tournament.stop_reason))


def stopped_words(reason: str) -> str:
    """Why a stopped tournament takes nothing more: the moderator's reason after, if given."""
    if not reason.strip():
        return gettext("A moderator stopped this tournament.")
    return gettext("A moderator stopped this tournament. %(reason)s") % {"reason": reason.strip()}


def lock_open(tournament: Tournament | int) -> Tournament:
    """The tournament locked for a change (in the caller's transaction), refused in words if it
    is over (check_open)."""
    locked = lock(tournament)
    check_open(locked)
    return locked


def check_join(tournament: Tournament, user: User, invite: str | None, at: datetime) -> int:
    """The person's rating at the game if they may join, else a refusal in words."""
    check_open(tournament)
    if refusal := access.who_may_enter(tournament, user):
        raise NotAllowed(refusal)
    if tournament.private and invite != tournament.invite:
        raise NotAllowed(gettext("This tournament is private: you need its link."))
    mine = Entrant.objects.filter(tournament=tournament, user=user).first()
    if mine is not None:
        if mine.withdrawn:
            raise ServiceError(gettext("You left this tournament: you cannot join it again."))
        raise ServiceError(gettext("You are already in this tournament."))
    if tournament.status == Tournament.Status.RUNNING:
        if tournament.is_swiss:
            raise ServiceError(gettext("This Swiss has started: it takes no new entrants."))
        if tournament.ends_at is not None and tournament.ends_at - at < LATE_JOIN_CUTOFF:
            raise ServiceError(
                gettext("This arena ends in less than 10 minutes: it takes nobody new.")
            )
    taken = Entrant.objects.filter(tournament=tournament, withdrawn=False).count()
    if tournament.max_entrants is not None and taken >= tournament.max_entrants:
        raise ServiceError(
            ngettext(
                "This tournament is full (%(most)d entrant).",
                "This tournament is full (%(most)d entrants).",
                tournament.max_entrants,
            )
            % {"most": tournament.max_entrants}
        )
    rating, games = rating_of(user, tournament.kind)
    game_name = catalog.get(tournament.kind).name
    if tournament.rating_min is not None and rating < tournament.rating_min:
        raise NotAllowed(
            gettext(
                "Your %(game)s rating (%(rating)d) is below this tournament's lowest, %(least)d."
            )
            % {"game": game_name, "rating": rating, "least": tournament.rating_min}
        )
    if tournament.rating_max is not None and rating > tournament.rating_max:
        raise NotAllowed(
            gettext(
                "Your %(game)s rating (%(rating)d) is above this tournament's highest, %(most)d."
            )
            % {"game": game_name, "rating": rating, "most": tournament.rating_max}
        )
    if games < tournament.games_min:
        raise NotAllowed(
            ngettext(
                "This tournament needs %(least)d rated game of %(game)s: you have played "
                "%(games)d.",
                "This tournament needs %(least)d rated games of %(game)s: you have played "
                "%(games)d.",
                tournament.games_min,
            )
            % {"least": tournament.games_min, "game": game_name, "games": games}
        )
    old_enough = at - timedelta(days=tournament.age_min_days)
    if tournament.age_min_days and user.date_joined > old_enough:
        raise NotAllowed(
            ngettext(
                "This tournament needs an account at least %(days)d day old.",
                "This tournament needs an account at least %(days)d days old.",
                tournament.age_min_days,
            )
            % {"days": tournament.age_min_days}
        )
    return rating


def block_note(tournament: Tournament, user: User) -> str:
    """What a block between this person and an entrant means here ("" when none does)."""
    others = set(
        Entrant.objects.filter(tournament=tournament)
        .exclude(user=user)
        .values_list("user_id", flat=True)
    )
    blocked_by, blocking = blocks_among(user, others)
    if blocking or blocked_by:
        return gettext(
            "A block stands between you and someone here: the two of you never share a table."
        )
    return ""


def join(tournament: Tournament | int, user: User, invite: str | None = None) -> str:
    """Enter the tournament; what the person is told (a sentence, with what a block means)."""
    with transaction.atomic():
        lock_person(user)  # their entries elsewhere hold (lock order: the person first)
        tournament = lock(tournament)
        at = now()
        away = away_entry(tournament, user)
        if away is not None:
            return come_back(tournament, away, at)
        rating = check_join(tournament, user, invite, at)
        busy.check_entries(tournament, user)
        running = tournament.status == Tournament.Status.RUNNING
        try:
            with transaction.atomic():
                Entrant.objects.create(
                    tournament=tournament,
                    user=user,
                    rating=rating,
                    free_since=at if running else None,
                    seen_at=at,
                )
        except IntegrityError:
            raise ServiceError(gettext("You are already in this tournament.")) from None
        bump(tournament)
        note = block_note(tournament, user)
    said = gettext("You are in %(name)s.") % {"name": tournament.name}
    return " ".join(filter(None, [said, note]))


def away_entry(tournament: Tournament, user: User) -> Entrant | None:
    """The person's entry to a running tournament they were withdrawn from for being away:
    they may come back (pressing Withdraw, or a moderator's removal, is for good)."""
    if tournament.status != Tournament.Status.RUNNING:
        return None
    return Entrant.objects.filter(
        tournament=tournament, user=user, withdrawn=True, withdrawn_why=Entrant.Withdrawn.ABSENT
    ).first()


def come_back(tournament: Tournament, entrant: Entrant, at: datetime) -> str:
    """An entrant withdrawn for being away is in again (the row is locked), from the next
    round, with the points they had."""
    entrant.withdrawn, entrant.withdrawn_why, entrant.withdrawn_round = False, "", None
    entrant.absences = 0
    entrant.seen_at = entrant.checked_in_at = at
    entrant.free_since = at
    fields = ["withdrawn", "withdrawn_why", "withdrawn_round", "absences", "seen_at"]
    entrant.save(update_fields=[*fields, "checked_in_at", "free_since"])
    bump(tournament)
    return gettext("Welcome back to %(name)s: you play from the next round.") % {
        "name": tournament.name
    }


# --- withdraw, pause, resume ---------------------------------------------------------------


def entrant_of(tournament: Tournament, user: User) -> Entrant:
    """The person's entry, still playing, or a refusal in words."""
    entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
    if entrant is None:
        raise ServiceError(gettext("You are not in this tournament."))
    if entrant.withdrawn:
        raise ServiceError(gettext("You have left this tournament already."))
    return entrant


def lock_entrant(tournament: Tournament | int, user: User) -> tuple[Tournament, Entrant]:
    """For a change a person makes to their own entry: the tournament locked (in the caller's
    transaction), refused in words if it is over (lock_open), and their entry, refused in words
    unless they are in it and still playing (entrant_of)."""
    locked = lock_open(tournament)
    return locked, entrant_of(locked, user)


def playing_seat(entrant: Entrant) -> Seat | None:
    """The person's seat at their tournament table, while it runs and they still play it."""
    table = entrant.table
    if table is None or table.recorded or table.game_id is None:
        return None
    return (
        Seat.objects.filter(
            game_id=table.game_id, user_id=entrant.user_id, bot="", game__status="running"
        )
        .exclude(position=None)
        .first()
    )


def withdraw(tournament: Tournament | int, user: User) -> str:
    """Leave the tournament: before the start the entry goes; after it, the person is out of
    the standings at the end and a house bot plays their running table to its end."""
    with transaction.atomic():
        tournament, entrant = lock_entrant(tournament, user)
        if tournament.status == Tournament.Status.SCHEDULED:
            entrant.delete()
            bump(tournament)
            return gettext("You left %(name)s.") % {"name": tournament.name}
        seat = playing_seat(entrant)
        leave(entrant, Entrant.Withdrawn.LEFT)
        if seat is not None:
            hand_seat_to_bot(seat.game_id, seat.pk, LEFT)
        bump(tournament)
    if seat is not None:
        return gettext(
            "You left %(name)s: a house bot plays your seat at your table to its end."
        ) % {"name": tournament.name}
    return gettext("You left %(name)s.") % {"name": tournament.name}


def leave(entrant: Entrant, why: str, at_round: int | None = None) -> None:
    """The entrant is out (left, away twice, removed); their points stay in others' Buchholz.
    `at_round`: the Swiss round they were withdrawn at for being away."""
    entrant.withdrawn = True
    entrant.withdrawn_why = why
    entrant.withdrawn_round = at_round
    entrant.paused = False
    entrant.save(update_fields=["withdrawn", "withdrawn_why", "withdrawn_round", "paused"])


def pause(tournament: Tournament | int, user: User) -> str:
    """An arena entrant stops being seated (their table under way plays on); points are kept."""
    with transaction.atomic():
        tournament, entrant = lock_entrant(tournament, user)
        if not tournament.is_arena:
            raise ServiceError(
                gettext("Only an arena can be paused; a Swiss seats everyone each round.")
            )
        if entrant.paused:
            raise ServiceError(gettext("You have paused already."))
        entrant.paused = True
        entrant.save(update_fields=["paused"])
        bump(tournament)
    return gettext("You are paused: you keep your points and get no new table until you come back.")


def resume(tournament: Tournament | int, user: User) -> str:
    """A paused arena entrant is seated again when a table is free."""
    with transaction.atomic():
        tournament, entrant = lock_entrant(tournament, user)
        if not entrant.paused:
            raise ServiceError(gettext("You are not paused."))
        entrant.paused = False
        entrant.free_since = now()
        entrant.seen_at = now()
        entrant.save(update_fields=["paused", "free_since", "seen_at"])
        bump(tournament)
    return gettext("Welcome back: you get the next free table.")


def here(tournament_id: int | None, user_id: int) -> None:
    """The person has the tournament's page open (its socket calls this when it opens and on
    every heartbeat), or any (None: their API event stream says so for every tournament they
    are in): at a live pace, nobody is skipped as away while this is fresh."""
    on = Q(tournament__status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING])
    which = on if tournament_id is None else Q(tournament_id=tournament_id)
    Entrant.objects.filter(which, user_id=user_id).update(seen_at=now())


def here_all(user_ids: set[int]) -> None:
    """These people's API event streams are open (all of a process's at once, one write:
    games/api/event_stream.py): they are here for every tournament they are in, as `here`."""
    on = Q(tournament__status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING])
    Entrant.objects.filter(on, user_id__in=list(user_ids)).update(seen_at=now())


def blocked_pairs(entrants: list[Entrant]) -> set[pairs.Pair]:
    """The pairs of these entrants that a block keeps apart (either way), by entrant id."""
    by_user = {e.user_id: e.pk for e in entrants}
    rows = Block.objects.filter(blocker_id__in=list(by_user), blocked_id__in=list(by_user))
    return {
        pairs.pair(by_user[a], by_user[b]) for a, b in rows.values_list("blocker_id", "blocked_id")
    }
