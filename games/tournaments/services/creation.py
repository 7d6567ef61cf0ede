"""Making a tournament: the settings a new one is made with, checked in words, and the making.

A person may have at most MOST_WAITING tournaments waiting to start at once; the site's schedule
(games/tournaments/schedule.py) makes its own through the same verb."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext, ngettext

from accounts.models import User
from games import catalog
from games.models import Game
from games.services import NotAllowed, ServiceError
from games.tournaments.models import Tournament
from games.tournaments.services.base import bump, lock_person, now

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
            gettext(
                "%(game)s tables seat %(fewest)d to %(most)d people, the fewest no more than "
                "the most."
            )
            % {"game": spec.name, "fewest": spec.min_players, "most": spec.max_players}
        )
    if rules.format == Tournament.Format.SWISS and not 1 <= (rules.rounds or 0) <= MOST_ROUNDS:
        raise ServiceError(
            gettext("A Swiss plays 1 to %(rounds)d rounds.") % {"rounds": MOST_ROUNDS}
        )
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
        raise ServiceError(
            ngettext(
                "A tournament must take at least %(fewest)d person.",
                "A tournament must take at least %(fewest)d people.",
                fewest,
            )
            % {"fewest": fewest}
        )


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
            ngettext(
                "You have %(waiting)d tournament waiting to start already: make another once it "
                "has started.",
                "You have %(waiting)d tournaments waiting to start already: make another once "
                "one of them has started.",
                MOST_WAITING,
            )
            % {"waiting": MOST_WAITING}
        )
