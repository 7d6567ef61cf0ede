"""A tournament under way: the start (or a cancel when too few came), each Swiss round paired
once, a table's end counted and what follows it (the next round, an arena's free people seated
(arena.py), the end). Who is here and how a round's tables are seated: seating.py.

One pairing at a time, by the database: every pass locks the tournament's row first, and a
Swiss round is a row unique per tournament and number, so a second process that waited on the
lock finds the round made and does nothing. All state is in rows: after a restart the sweep
picks up where the last pass left off.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils.translation import gettext, ngettext

from games.models import TURN_BASED
from games.notifications.services import Told
from games.tournaments import draw, pairs, reasons, scoring
from games.tournaments.models import Entrant, Round, Table, Tournament
from games.tournaments.services import absence
from games.tournaments.services.arena import arena_over, seat_free
from games.tournaments.services.base import announce, bump, lock, now, tell, tell_each
from games.tournaments.services.entry import blocked_pairs, leave
from games.tournaments.services.results import finish, record_table, recount
from games.tournaments.services.seating import NewTables, elsewhere, present, seat_tables

logger = logging.getLogger(__name__)

ABSENCES_TO_WITHDRAW = 2
"""Swiss rounds in a row skipped for being away that withdraw an entrant."""


# --- the start ----------------------------------------------------------------------------


def start(tournament: Tournament | int) -> bool:
    """Start a tournament whose time came: cancelled if fewer than a table came, else the first
    Swiss round is paired or the arena's first tables seated. Whether it started."""
    with transaction.atomic():
        tournament = lock(tournament)
        at = now()
        if tournament.status != Tournament.Status.SCHEDULED or tournament.starts_at > at:
            return False
        came = Entrant.objects.filter(tournament=tournament, withdrawn=False).count()
        if came < tournament.fewest:
            cancel(tournament, came)
            return False
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = at
        fields = ["status", "started_at"]
        if tournament.is_arena:
            tournament.ends_at = at + timedelta(minutes=tournament.minutes or 0)
            fields.append("ends_at")
            Entrant.objects.filter(tournament=tournament).update(free_since=at)
        # Told after the first tables: their people's pages move first (seating.seat_tables),
        # before each open tournament page draws the change.
        bump(tournament, fields, told=False)
        if tournament.is_swiss:
            due_round(tournament, 1)
        else:
            seat_free(tournament)
        announce(tournament)
    return True


def cancel(tournament: Tournament, came: int) -> None:
    """Too few came (the row is locked): the tournament is called off and its creator and
    entrants are told."""
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now()
    bump(tournament, ["status", "finished_at"])
    said = {"tournament": tournament.name, "came": came, "fewest": tournament.fewest}

    def text() -> str:
        return (
            ngettext(
                "%(tournament)s was cancelled: %(came)d of the %(fewest)d people a table needs "
                "joined.",
                "%(tournament)s was cancelled: %(came)d of the %(fewest)d people a table needs "
                "joined.",
                came,
            )
            % said
        )

    told = set(Entrant.objects.filter(tournament=tournament).values_list("user_id", flat=True))
    if tournament.creator_id is not None:
        told.add(tournament.creator_id)
    tell(tournament, {pk: f"tournament:{tournament.pk}:cancelled" for pk in told}, text)


def bye_words(number: int, name: str, points: float) -> str:
    """A bye's word to its entrant, in the language active."""
    return gettext("Round %(number)d of %(tournament)s: you have a bye (%(points)s points).") % {
        "number": number,
        "tournament": name,
        "points": f"{points:g}",
    }


def soon_words(name: str, here: bool) -> str:
    """The word that a tournament starts soon, in the language active; a live Swiss's asks its
    people to say they are here."""
    if here:
        return gettext(
            '%(tournament)s starts in 5 minutes. Press "I\'m here" on its page or keep a page of '
            "Bakehouse open."
        ) % {"tournament": name}
    return gettext("%(tournament)s starts in 5 minutes.") % {"tournament": name}


def warn_soon(tournament: Tournament | int) -> bool:
    """Tell the entrants, once, that the tournament starts within 5 minutes."""
    with transaction.atomic():
        tournament = lock(tournament)
        if tournament.warned or tournament.status != Tournament.Status.SCHEDULED:
            return False
        tournament.warned = True
        bump(tournament, ["warned"])
        people = Entrant.objects.filter(tournament=tournament, withdrawn=False)
        keys = {
            pk: f"tournament:{tournament.pk}:soon"
            for pk in people.values_list("user_id", flat=True)
        }
        here = tournament.is_swiss and tournament.pace not in TURN_BASED
        tell(tournament, keys, partial(soon_words, tournament.name, here))
    return True


# --- Swiss --------------------------------------------------------------------------------


def met_before(tournament: Tournament) -> dict[pairs.Pair, int]:
    """How often each pair of entrants shared a table so far."""
    met: dict[pairs.Pair, int] = {}
    tables = Table.objects.filter(tournament=tournament).exclude(game=None)
    for people in tables.values_list("people", flat=True):
        for p in pairs.pairs_of(people):
            met[p] = met.get(p, 0) + 1
    return met


def round_over(tournament: Tournament) -> bool:
    """Whether every table of the round under way is recorded."""
    if tournament.current_round == 0:
        return True
    return not Table.objects.filter(
        tournament=tournament, round__number=tournament.current_round, recorded=False
    ).exists()


def pair_round(tournament: Tournament, number: int) -> Round | None:
    """Pair Swiss round `number` of the locked tournament, once: None if it is made already or
    its time has not come (a table of the last round still plays)."""
    if Round.objects.filter(tournament=tournament, number=number).exists():
        return None
    if number != tournament.current_round + 1 or not round_over(tournament):
        return None
    at = now()
    entrants = list(
        Entrant.objects.filter(tournament=tournament, withdrawn=False).select_related("user")
    )
    here = present(tournament, entrants, at)
    skipped = [e for e in entrants if e.pk not in here]
    playing = [e for e in entrants if e.pk in here]
    seating = draw.swiss(
        [scoring.Standing(e.pk, e.points, e.buchholz, e.wins, e.rating, e.byes) for e in playing],
        tournament.seats,
        tournament.fewest,
        met_before(tournament),
        blocked_pairs(playing),
        bots_for_byes=tournament.bye == Tournament.Bye.BOT,
    )
    made = Round.objects.create(
        tournament=tournament, number=number, paired_at=at, skipped=[e.pk for e in skipped]
    )
    by_id = {e.pk: e for e in entrants}
    told = seat_tables(NewTables(tournament, made, seating.tables, seating.bots, by_id, 1))
    bye_points = scoring.bye_points(tournament.seats, tournament.place_points)
    for n, entrant_id in enumerate(seating.byes, start=len(seating.tables) + 1):
        bye = Table.objects.create(
            tournament=tournament,
            round=made,
            number=n,
            people=[entrant_id],
            recorded=True,
            recorded_at=at,
            awarded=[{"entrant": entrant_id, "place": None, "points": bye_points, "bonus": 0}],
        )
        by_id[entrant_id].table = bye
        by_id[entrant_id].save(update_fields=["table"])
        told.append(
            Told(
                by_id[entrant_id].user_id,
                f"tournament:{tournament.pk}:round:{number}",
                partial(bye_words, number, tournament.name, bye_points),
            )
        )
    mark_absences(here, skipped, playing, number)
    absence.tell_skipped(tournament, number, skipped, elsewhere(skipped))
    tournament.current_round = number
    recount(tournament)
    bump(tournament, ["current_round"])
    tell_each(tournament, told)
    return made


def due_round(tournament: Tournament, number: int) -> Round | None:
    """Swiss round `number` is due (the locked tournament's start, or its last round over):
    paired at once when everyone is here; else it waits for the away, who are told once, up to
    SWISS_CHECK_IN_SECONDS, and is then paired with those here, or stops in words: the first
    round with fewer here than a table needs, a later one with nobody (absence.py)."""
    at = now()
    entrants = list(Entrant.objects.filter(tournament=tournament, withdrawn=False))
    here = present(tournament, entrants, at)
    away = [e for e in entrants if e.pk not in here]
    if away:
        if tournament.round_due_at is None:
            tournament.round_due_at = at
            bump(tournament, ["round_due_at"])
            absence.warn_away(tournament, number, away, elsewhere(away))
        if at < tournament.round_due_at + absence.check_in_wait():
            return None
    if away and len(here) < (tournament.fewest if number == 1 else 1):
        stop_unattended(tournament, len(here), len(entrants), number)
        return None
    if tournament.round_due_at is not None:
        tournament.round_due_at = None
        tournament.save(update_fields=["round_due_at"])
    return pair_round(tournament, number)


def stop_unattended(tournament: Tournament, came: int, entrants: int, number: int) -> None:
    """Too few were here for a Swiss round at the end of its wait (the row is locked): for the
    first round the event is called off, for a later one it ends after the rounds played; the
    page and everyone in it read why."""
    code, values = absence.nobody_came(tournament, came, entrants, number)
    tournament.stop_code, tournament.stop_values = code, values
    tournament.round_due_at = None
    tournament.save(update_fields=["stop_code", "stop_values", "round_due_at"])
    if number > 1:
        finish(tournament)
        return
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now()
    bump(tournament, ["status", "finished_at"])
    told = Entrant.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    key = f"tournament:{tournament.pk}:cancelled"
    text = partial(reasons.cancelled_said, tournament.name, code, values)
    tell(tournament, dict.fromkeys(told, key), text)


def mark_absences(
    here: set[int], skipped: list[Entrant], playing: list[Entrant], number: int
) -> None:
    """Skipped entrants count an absence (withdrawn after two in a row); those here start over."""
    for entrant in skipped:
        entrant.absences += 1
        entrant.save(update_fields=["absences"])
        if entrant.absences >= ABSENCES_TO_WITHDRAW:
            leave(entrant, Entrant.Withdrawn.ABSENT, at_round=number)
    Entrant.objects.filter(pk__in=[e.pk for e in playing if e.absences]).update(absences=0)


# --- what follows a table's end -------------------------------------------------------------


def advance(tournament: Tournament | int) -> None:
    """What is due next, once: the next Swiss round (or the end after the last), an arena's
    free people seated (or its end once its time ran out and its last table ended)."""
    with transaction.atomic():
        tournament = lock(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            return
        if tournament.is_swiss:
            if not round_over(tournament):
                return
            if tournament.current_round >= (tournament.rounds or 0):
                finish(tournament)
            else:
                due_round(tournament, tournament.current_round + 1)
            return
        if not arena_over(tournament, now()):
            seat_free(tournament)
        elif not Table.objects.filter(tournament=tournament, recorded=False).exists():
            finish(tournament)


def table_ended(game_id: int) -> None:
    """A game ended: if it was a tournament table, count it once and do what follows."""
    table = Table.objects.filter(game_id=game_id).values_list("pk", "tournament_id").first()
    if table is None:
        return
    record_table(table[0])
    advance(table[1])


def game_ended_here(sender: object, game_id: int, **kwargs: object) -> None:
    """The services' `game_ended` signal (after the game's commit): a failure is logged, never
    raised into the move that ended the game; the sweep records what this missed."""
    try:
        table_ended(game_id)
    except Exception:
        logger.exception("Tournament table of game %s not recorded; the sweep will", game_id)
