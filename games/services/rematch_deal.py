"""Where a rematch stands, and its deal: who said yes (bots always do), who is still to answer,
who is away without an answer (Answers); the deal to those who play once everyone present agreed
(settle); and its first clocks, held while its people come over from the finished table, started
once they are all here (start_held_clocks, arrived). The offers and answers themselves are
rematch.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_noop as N_

from games.models import Game, Seat
from games.services import clocks, presence
from games.services.autoplay import inline_bots
from games.services.base import commit_version, lock_with_seats, notice, seats_in_order
from games.services.dealing import deal


@dataclass(frozen=True)
class Answers:
    """Where a rematch stands: who plays (said yes, bots too), who is still to answer, who is
    away without an answer (left out if the rest agree), and whether it may be dealt now."""

    playing: list[Seat]
    waiting: list[Seat]
    away: list[Seat]
    least: int

    @property
    def enough(self) -> bool:
        """Enough bakers said yes to deal the game."""
        return len(self.playing) >= self.least

    @property
    def agreed(self) -> bool:
        """Everyone present said yes, and enough bakers play."""
        return not self.waiting and self.enough

    @property
    def needs_away(self) -> bool:
        """Even if everyone present says yes, too few bakers play without the people away."""
        return len(self.playing) + len(self.waiting) < self.least


def answers(new: Game, seats: list[Seat], here: set[int]) -> Answers:
    """The answers at a rematch table, given who is at either table now or lately (`here`).

    Nobody is away before the offer is AWAY_SECONDS old: each person gets that long to come.
    """
    settled = new.created_at <= presence.away_since(clocks.now())
    playing = [s for s in seats if s.accepted]
    unanswered = [s for s in seats if s.accepted is None]
    away = [s for s in unanswered if settled and s.user_id not in here]
    waiting = [s for s in unanswered if s not in away]
    return Answers(playing, waiting, away, new.spec.min_players)


def read_answers(new: Game, seats: list[Seat] | None = None) -> Answers:
    """The answers at this rematch table now (presence read at it and at the finished game)."""
    seats = seats_in_order(new) if seats is None else seats
    tables = [new.pk] if new.rematch_of_id is None else [new.pk, new.rematch_of_id]
    return answers(new, seats, presence.lately_here(tables))


def settle(new: Game, found: Answers) -> bool:
    """Deal the locked rematch table to those who said yes, if they agreed; whether it was.

    The away people's seats go: the new game seats only those who play.
    """
    if not found.agreed:
        return False
    if found.away:
        names = ", ".join(s.user.username for s in found.away)
        words = N_("Dealt without %(names)s: away when the others had all said yes.")
        notice(new, words, {"names": names})
        Seat.objects.filter(pk__in=[s.pk for s in found.away]).delete()
        new.capacity = len(found.playing)
        new.save(update_fields=["notices", "capacity"])
    deal(new, found.playing)
    start_held_clocks(new, found.playing)
    return True


# --- the first clocks: held for the people's arrival, started once all of them are here -----


def start_held_clocks(game: Game, seats: list[Seat]) -> bool:
    """At a rematch just dealt, whose first clocks wait out the arrival grace while its people
    come from the finished table (clocks.first_clocks_at): once every person seated has a socket
    at it, the clocks start now, their deadlines brought forward by what was left of the grace.
    Whether they were; the game row is locked, and the caller makes the version."""
    at = clocks.now()
    clock = clocks.pace(game)
    grace_ends = at + timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)
    held = [
        (seat, starts)
        for seat in seats
        if (starts := clocks.clock_starts(seat, clock)) is not None and at < starts <= grace_ends
    ]
    if not held:
        return False
    people = {s.user_id for s in seats if not s.bot}
    if not people <= presence.read(game.pk).connected:
        return False
    for seat, starts in held:
        assert seat.deadline is not None
        seat.deadline -= starts - at
    Seat.objects.bulk_update([seat for seat, _ in held], ["deadline"])
    return True


def arrived(game_id: int) -> bool:
    """A person's socket came to a rematch under way (the live layer tells): its held first
    clocks start if everyone seated is here now; whether they did (a new version then)."""
    with transaction.atomic():
        game, seats = lock_with_seats(game_id)
        if game.status != Game.Status.RUNNING or game.rematch_of_id is None:
            return False
        if not start_held_clocks(game, seats):
            return False
        commit_version(game, [], bots=True)  # the runner's timer moves to the nearer deadline
    inline_bots(game_id)
    return True
