"""A tournament under way: the start (or a cancel when too few came), each Swiss round paired
once, an arena's free people seated, a table's end counted and what follows it.

One pairing at a time, by the database: every pass locks the tournament's row first, and a
Swiss round is a row unique per tournament and number, so a second process that waited on the
lock finds the round made and does nothing. All state is in rows: after a restart the sweep
picks up where the last pass left off.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from games import catalog, events
from games.models import TURN_BASED
from games.notifications.services import Told
from games.services import seat_tables as seat_people_at_tables
from games.services.presence import lately_here
from games.tournaments import draw, pairs, scoring
from games.tournaments.models import Entrant, Round, Table, Tournament
from games.tournaments.services import absence, busy
from games.tournaments.services.base import bump, lock, now, tell, tell_each
from games.tournaments.services.entry import blocked_pairs, leave
from games.tournaments.services.results import finish, record_table, recount

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
        bump(tournament, fields)
        if tournament.is_swiss:
            due_round(tournament, 1)
        else:
            seat_free(tournament)
    return True


def cancel(tournament: Tournament, came: int) -> None:
    """Too few came (the row is locked): the tournament is called off and its creator and
    entrants are told."""
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now()
    bump(tournament, ["status", "finished_at"])
    text = (
        f"{tournament.name} was cancelled: {came} of the {tournament.fewest} people a table "
        "needs joined."
    )
    told = set(Entrant.objects.filter(tournament=tournament).values_list("user_id", flat=True))
    if tournament.creator_id is not None:
        told.add(tournament.creator_id)
    tell(tournament, {pk: f"tournament:{tournament.pk}:cancelled" for pk in told}, text)


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
        text = f"{tournament.name} starts in 5 minutes."
        if tournament.is_swiss and tournament.pace not in TURN_BASED:
            text += ' Press "I\'m here" on its page or keep a page of Bakehouse open.'
        tell(tournament, keys, text)
    return True


# --- who is here --------------------------------------------------------------------------


def present(tournament: Tournament, entrants: list[Entrant], at: datetime) -> set[int]:
    """The entrants who count as here: at a turn-based pace everyone; in a live Swiss, those with
    a page of the site open or "I'm here" pressed (absence.present); in an arena, those whose
    tournament page or a table of the tournament had a socket open within AWAY_SECONDS."""
    if tournament.pace in TURN_BASED:
        return {e.pk for e in entrants}
    if tournament.is_swiss:
        here = absence.present(tournament, entrants, at)
        return here - elsewhere(e for e in entrants if e.pk in here)
    since = at - timedelta(seconds=settings.AWAY_SECONDS)
    games = Table.objects.filter(tournament=tournament).exclude(game=None)
    at_tables = lately_here(games.values_list("game_id", flat=True))
    return {e.pk for e in entrants if (e.seen_at and e.seen_at >= since) or e.user_id in at_tables}


def elsewhere(entrants: Iterable[Entrant]) -> set[int]:
    """Those of these entrants (ids) who play a live table outside the tournament now: a live
    Swiss waits for them as for the away, then plays the round without them (one person, one
    live table: services/busy.py)."""
    entrants = list(entrants)
    playing = busy.at_live_tables(e.user_id for e in entrants)
    return {e.pk for e in entrants if e.user_id in playing}


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
    told = seat_tables(tournament, made, seating.tables, seating.bots, by_id, start_at=1)
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
                f"Round {number} of {tournament.name}: you have a bye ({bye_points:g} points).",
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
    reason = absence.nobody_came_words(tournament, came, entrants, number)
    tournament.stop_reason = reason[:200]
    tournament.round_due_at = None
    tournament.save(update_fields=["stop_reason", "round_due_at"])
    if number > 1:
        finish(tournament)
        return
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now()
    bump(tournament, ["status", "finished_at"])
    told = Entrant.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    key = f"tournament:{tournament.pk}:cancelled"
    first = reason[0].lower() + reason[1:]
    tell(tournament, dict.fromkeys(told, key), f"{tournament.name} was cancelled: {first}")


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


def seat_tables(
    tournament: Tournament,
    made: Round | None,
    tables: tuple[tuple[int, ...], ...] | list[tuple[int, ...]],
    bots: tuple[int, ...] | list[int],
    by_id: dict[int, Entrant],
    start_at: int,
) -> list[Told]:
    """Start a game for each table (through the services, as any rated game) and its Table row;
    what each person seated is told. At a live pace their open pages go to it (move_pages)."""
    house_bot = catalog.get(tournament.kind).house_bot
    tables_told = f"tournament:{tournament.pk}:table:"  # one at a time a person: the latest
    told = []
    moves: list[tuple[int, str]] = []
    games = seat_people_at_tables(
        tournament.kind,
        [[by_id[e].user for e in people] for people in tables],
        pace=tournament.pace,
        rated=True,
        bots=[[house_bot] * bot_count for bot_count in bots],
        private=tournament.private,
    )
    made_tables = Table.objects.bulk_create(
        Table(tournament=tournament, round=made, number=number, game=game, people=list(people))
        for number, (people, game) in enumerate(zip(tables, games, strict=True), start=start_at)
    )
    for table in made_tables:  # an update a table: a bulk_update of 200 cost 0.2 s of CPU
        Entrant.objects.filter(pk__in=table.people).update(table=table, free_since=None)
    where = f"Round {made.number} of" if made is not None else "Your next table in"
    for table, game in zip(made_tables, games, strict=True):
        people = table.people
        for e in people:
            key = f"{tables_told}{table.pk}"
            text = f"{where} {tournament.name} is ready."
            told.append(Told(by_id[e].user_id, key, text, game, replaces=tables_told))
            moves.append((by_id[e].user_id, game.get_absolute_url()))
    if tournament.pace not in TURN_BASED:
        transaction.on_commit(lambda: move_pages(moves))
    return told


def move_pages(moves: list[tuple[int, str]]) -> None:
    """Once committed: every open page of each person seated (their tournament page, a table
    page) goes to their new table, as quick pairing's do. Only at a live pace: a turn-based
    round is told in the inbox and never pulls a person away from a game they are playing."""
    for user_id, url in moves:
        events.seated.tell(user_id, url)


# --- arena --------------------------------------------------------------------------------


def seat_free(tournament: Tournament) -> int:
    """Seat the locked arena's free people (their table ended, not paused, here) at new
    tables; how many tables. None after the arena's end."""
    at = now()
    if tournament.status != Tournament.Status.RUNNING or arena_over(tournament, at):
        return 0
    free = list(
        Entrant.objects.filter(tournament=tournament, withdrawn=False, paused=False)
        .exclude(table__recorded=False)
        .select_related("user", "table")
    )
    here = present(tournament, free, at)
    playing = busy.at_live_tables(e.user_id for e in free)  # skipped until free
    free = [e for e in free if e.pk in here and e.user_id not in playing]
    if len(free) < tournament.fewest:
        return 0
    waiting = [
        draw.Free(
            e.pk,
            e.points,
            e.rating,
            (e.free_since or at).timestamp(),
            frozenset(e.table.people) if e.table is not None else frozenset(),
        )
        for e in free
    ]
    tables = draw.arena(
        waiting,
        tournament.seats,
        tournament.fewest,
        at.timestamp(),
        settings.ARENA_SETTLE_SECONDS,
        blocked_pairs(free),
        mix_wait(tournament),
    )
    if not tables:
        return 0
    last = Table.objects.filter(tournament=tournament).order_by("-number").first()
    by_id = {e.pk: e for e in free}
    told = seat_tables(
        tournament, None, tables, [0] * len(tables), by_id, (last.number if last else 0) + 1
    )
    bump(tournament)
    tell_each(tournament, told)
    return len(tables)


def mix_wait(tournament: Tournament) -> float:
    """How long a table of last table-mates may wait for others to come free to mix with: none
    when nobody else is at a table now (nobody can come)."""
    tables = Table.objects.filter(tournament=tournament, recorded=False).exclude(game=None)
    return settings.ARENA_MIX_SECONDS if tables.exists() else 0.0


def arena_over(tournament: Tournament, at: datetime) -> bool:
    """Whether the arena's time ran out: no new table starts after it."""
    return tournament.ends_at is not None and at >= tournament.ends_at


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
