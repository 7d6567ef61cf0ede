"""Making a tournament and taking part: create, join, withdraw, pause and resume, presence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext

from accounts.friends import blocks_among
from accounts.models import Block, Rating, User
from accounts.ratings import new_rating
from games import catalog
from games.models import Game, Seat
from games.services import LEFT, NotAllowed, ServiceError, hand_seat_to_bot
from games.tournaments import access, pairs
from games.tournaments.models import Entrant, Tournament
from games.tournaments.services import busy
from games.tournaments.services.base import bump, lock, lock_person, now

LATE_JOIN_CUTOFF = timedelta(minutes=10)
"""An arena takes late entrants until this long before its end."""

LIVE_PACES = (Game.Pace.RELAXED, Game.Pace.NORMAL, Game.Pace.FAST)
"""The paces an arena may have: played at one sitting."""

LONGEST_ARENA_MINUTES = 24 * 60
MOST_ROUNDS = 20
MOST_WAITING = 3
"""Tournaments one person may have waiting to start at once (the site's own count for nobody)."""


@dataclass(frozen=True)
class Rules:
    """A new tournament's settings, as the create form or the site's schedule gives them."""

    name: str
    kind: str
    format: str
    pace: str
    starts_at: datetime
    seats: int
    fewest: int | None = None
    rounds: int | None = None
    minutes: int | None = None
    place_points: dict[str, list[float]] | None = None
    bye: str = Tournament.Bye.POINTS
    streak_bonus: int = 2
    rating_min: int | None = None
    rating_max: int | None = None
    games_min: int = 0
    age_min_days: int = 0
    max_entrants: int | None = None
    private: bool = False
    bots_welcome: bool = False


# --- create -------------------------------------------------------------------------------


def check_rules(rules: Rules, at: datetime) -> None:
    """Refuse settings no tournament can run with, in words."""
    try:
        spec = catalog.get(rules.kind)
    except KeyError:
        raise ServiceError(gettext("That game is not on offer.")) from None
    name = rules.name.strip()
    if not name or len(name) > 100:
        raise ServiceError(gettext("A tournament needs a name of 1 to 100 characters."))
    if rules.format not in Tournament.Format.values:
        raise ServiceError(gettext("A tournament is a Swiss or an arena."))
    if rules.pace not in Game.Pace.values:
        raise ServiceError(gettext("That pace is not on offer."))
    fewest = rules.fewest or rules.seats
    if not spec.min_players <= fewest <= rules.seats <= spec.max_players:
        raise ServiceError(
            f"{spec.name} tables seat {spec.min_players} to {spec.max_players} people, "
            "the fewest no more than the most."
        )
    if rules.format == Tournament.Format.SWISS and not 1 <= (rules.rounds or 0) <= MOST_ROUNDS:
        raise ServiceError(f"A Swiss plays 1 to {MOST_ROUNDS} rounds.")
    if rules.format == Tournament.Format.ARENA:
        if rules.pace not in LIVE_PACES:
            raise ServiceError(gettext("An arena is played live: pick a pace without days a move."))
        if not 10 <= (rules.minutes or 0) <= LONGEST_ARENA_MINUTES:
            raise ServiceError(gettext("An arena lasts 10 minutes to a day."))
    if rules.starts_at < at - timedelta(minutes=1):
        raise ServiceError(gettext("A tournament cannot start in the past."))
    if rules.bye not in Tournament.Bye.values:
        raise ServiceError(gettext("A bye is points or a house bot's seat."))
    check_points(rules.place_points or {})
    low, high = rules.rating_min, rules.rating_max
    if low is not None and high is not None and low > high:
        raise ServiceError(gettext("The lowest rating allowed is above the highest."))
    if rules.max_entrants is not None and rules.max_entrants < fewest:
        raise ServiceError(f"A tournament must take at least {fewest} people.")


def check_points(points: Mapping[str, object]) -> None:
    """Refuse points by place that are not, per table size, one number a place, best first."""
    for size, row in points.items():
        if not str(size).isdigit() or not isinstance(row, list) or len(row) != int(size):
            raise ServiceError(
                gettext("Points by place need one number for each place at the table.")
            )
        if not all(isinstance(p, int | float) and 0 <= p <= 100 for p in row):
            raise ServiceError(gettext("Points by place are numbers from 0 to 100."))
        if list(row) != sorted(row, reverse=True):
            raise ServiceError(gettext("A better place never earns fewer points."))


def create(creator: User | None, rules: Rules, scheduled_by: str = "") -> Tournament:
    """A new tournament, scheduled to start (anyone may make one; the site's own have no
    creator and name their schedule entry)."""
    check_rules(rules, now())
    if creator is not None and (creator.is_bot or not creator.is_active):
        raise NotAllowed(gettext("Only a person can make a tournament."))
    arena = rules.format == Tournament.Format.ARENA
    with transaction.atomic():
        if creator is not None:
            check_waiting(lock_person(creator))
        tournament = Tournament.objects.create(
            name=rules.name.strip(),
            kind=rules.kind,
            format=rules.format,
            pace=rules.pace,
            seats=rules.seats,
            fewest=rules.fewest or rules.seats,
            rounds=None if arena else rules.rounds,
            minutes=rules.minutes if arena else None,
            starts_at=rules.starts_at,
            place_points=rules.place_points or {},
            bye=rules.bye,
            streak_bonus=rules.streak_bonus if arena else 0,
            rating_min=rules.rating_min,
            rating_max=rules.rating_max,
            games_min=rules.games_min,
            age_min_days=rules.age_min_days,
            max_entrants=rules.max_entrants,
            private=rules.private,
            bots_welcome=rules.bots_welcome,
            creator=creator,
            scheduled_by=scheduled_by,
        )
        bump(tournament)
    return tournament


def check_waiting(creator: User) -> None:
    """Refuse a person who has MOST_WAITING tournaments waiting to start already (their row is
    locked, so two presses at once cannot both pass)."""
    waiting = Tournament.objects.filter(creator=creator, status=Tournament.Status.SCHEDULED)
    if waiting.count() >= MOST_WAITING:
        raise ServiceError(
            f"You have {MOST_WAITING} tournaments waiting to start already: make another once "
            "one of them has started."
        )


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
        raise ServiceError(f"A moderator stopped this tournament. {tournament.stop_reason}".strip())


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
        raise ServiceError(f"This tournament is full ({tournament.max_entrants} entrants).")
    rating, games = rating_of(user, tournament.kind)
    game_name = catalog.get(tournament.kind).name
    if tournament.rating_min is not None and rating < tournament.rating_min:
        raise NotAllowed(
            f"Your {game_name} rating ({rating}) is below this tournament's lowest, "
            f"{tournament.rating_min}."
        )
    if tournament.rating_max is not None and rating > tournament.rating_max:
        raise NotAllowed(
            f"Your {game_name} rating ({rating}) is above this tournament's highest, "
            f"{tournament.rating_max}."
        )
    if games < tournament.games_min:
        raise NotAllowed(
            f"This tournament needs {tournament.games_min} rated games of {game_name}: "
            f"you have played {games}."
        )
    old_enough = at - timedelta(days=tournament.age_min_days)
    if tournament.age_min_days and user.date_joined > old_enough:
        raise NotAllowed(
            f"This tournament needs an account at least {tournament.age_min_days} days old."
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
        return "A block stands between you and someone here: the two of you never share a table."
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
    return " ".join(filter(None, [f"You are in {tournament.name}.", note]))


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
    return f"Welcome back to {tournament.name}: you play from the next round."


# --- withdraw, pause, resume ---------------------------------------------------------------


def entrant_of(tournament: Tournament, user: User) -> Entrant:
    """The person's entry, still playing, or a refusal in words."""
    entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
    if entrant is None:
        raise ServiceError(gettext("You are not in this tournament."))
    if entrant.withdrawn:
        raise ServiceError(gettext("You have left this tournament already."))
    return entrant


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
        tournament = lock_open(tournament)
        entrant = entrant_of(tournament, user)
        if tournament.status == Tournament.Status.SCHEDULED:
            entrant.delete()
            bump(tournament)
            return f"You left {tournament.name}."
        seat = playing_seat(entrant)
        leave(entrant, Entrant.Withdrawn.LEFT)
        if seat is not None:
            hand_seat_to_bot(seat.game_id, seat.pk, LEFT)
        bump(tournament)
    if seat is not None:
        return f"You left {tournament.name}: a house bot plays your seat at your table to its end."
    return f"You left {tournament.name}."


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
        tournament = lock_open(tournament)
        if not tournament.is_arena:
            raise ServiceError(
                gettext("Only an arena can be paused; a Swiss seats everyone each round.")
            )
        entrant = entrant_of(tournament, user)
        if entrant.paused:
            raise ServiceError(gettext("You have paused already."))
        entrant.paused = True
        entrant.save(update_fields=["paused"])
        bump(tournament)
    return "You are paused: you keep your points and get no new table until you come back."


def resume(tournament: Tournament | int, user: User) -> str:
    """A paused arena entrant is seated again when a table is free."""
    with transaction.atomic():
        tournament = lock_open(tournament)
        entrant = entrant_of(tournament, user)
        if not entrant.paused:
            raise ServiceError(gettext("You are not paused."))
        entrant.paused = False
        entrant.free_since = now()
        entrant.seen_at = now()
        entrant.save(update_fields=["paused", "free_since", "seen_at"])
        bump(tournament)
    return "Welcome back: you get the next free table."


def here(tournament_id: int | None, user_id: int) -> None:
    """The person has the tournament's page open (its socket calls this when it opens and on
    every heartbeat), or any (None: their API event stream says so for every tournament they
    are in): at a live pace, nobody is skipped as away while this is fresh."""
    on = Q(tournament__status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING])
    which = on if tournament_id is None else Q(tournament_id=tournament_id)
    Entrant.objects.filter(which, user_id=user_id).update(seen_at=now())


def blocked_pairs(entrants: list[Entrant]) -> set[pairs.Pair]:
    """The pairs of these entrants that a block keeps apart (either way), by entrant id."""
    by_user = {e.user_id: e.pk for e in entrants}
    rows = Block.objects.filter(blocker_id__in=list(by_user), blocked_id__in=list(by_user))
    return {
        pairs.pair(by_user[a], by_user[b]) for a, b in rows.values_list("blocker_id", "blocked_id")
    }
