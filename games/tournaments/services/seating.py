"""Who sits down when a tournament seats people: who counts as here (present, and who plays a
live table elsewhere), and the tables of a Swiss round or an arena's pass seated at once
(seat_tables), what each person seated is told and, at a live pace, their open pages moved to
their new table once committed (move_pages). Swiss rounds (rounds.py) and the arena (arena.py)
both seat through here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from games import catalog, events
from games.models import TURN_BASED
from games.notifications.services import Told
from games.services import seat_tables as seat_people_at_tables
from games.services.presence import lately_here
from games.tournaments.models import Entrant, Round, Table, Tournament
from games.tournaments.services import absence, busy


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


# --- the tables seated ------------------------------------------------------------------


@dataclass(frozen=True)
class NewTables:
    """The tables a Swiss round or an arena's pass seats at once: each a tuple of entrants (ids)
    with its house bots' count at the same place in `bots`; `made` the round (None: an arena's
    pass), `by_id` the entrants by id, `start_at` the first table's number."""

    tournament: Tournament
    made: Round | None
    tables: Sequence[tuple[int, ...]]
    bots: Sequence[int]
    by_id: dict[int, Entrant]
    start_at: int


def seat_tables(new: NewTables) -> list[Told]:
    """Start a game for each table (through the services, as any rated game) and its Table row;
    what each person seated is told. At a live pace their open pages go to it (move_pages),
    before anything else of the round is sent: each page moved asks for its new table at once,
    and those pages share the serving processes' loops with the sends still to go."""
    with transaction.atomic():  # the pages' hook runs at the commit, once `moves` is filled
        live = new.tournament.pace not in TURN_BASED
        moves: list[tuple[int, str]] = []
        if live:  # the first hook of the commit: before the games' own (game.started, ...)
            transaction.on_commit(lambda: move_pages(moves))
        return seated(new, moves)


def seated(new: NewTables, moves: list[tuple[int, str]]) -> list[Told]:
    """seat_tables' games and rows made; each page to move put in `moves`."""
    tournament, made, tables, by_id = new.tournament, new.made, new.tables, new.by_id
    house_bot = catalog.get(tournament.kind).house_bot
    tables_told = f"tournament:{tournament.pk}:table:"  # one at a time a person: the latest
    told = []
    live = tournament.pace not in TURN_BASED
    games = seat_people_at_tables(
        tournament.kind,
        [[by_id[e].user for e in people] for people in tables],
        pace=tournament.pace,
        rated=True,
        bots=[[house_bot] * bot_count for bot_count in new.bots],
        private=tournament.private,
    )
    made_tables = Table.objects.bulk_create(
        Table(tournament=tournament, round=made, number=number, game=game, people=list(people))
        for number, (people, game) in enumerate(zip(tables, games, strict=True), start=new.start_at)
    )
    for table in made_tables:  # an update a table: a bulk_update of 200 cost 0.2 s of CPU
        Entrant.objects.filter(pk__in=table.people).update(table=table, free_since=None)
    text = partial(ready_words, made.number if made is not None else 0, tournament.name)
    for table, game in zip(made_tables, games, strict=True):
        people = table.people
        for e in people:
            key = f"{tables_told}{table.pk}"
            told.append(
                Told(by_id[e].user_id, key, text, game, replaces=tables_told, page_moves=live)
            )
            if live:
                moves.append((by_id[e].user_id, game.get_absolute_url()))
    return told


def ready_words(number: int, name: str) -> str:
    """A new table's word to its people, in the language active: a Swiss's round (its number),
    or an arena's next table (0)."""
    if number:
        return gettext("Round %(number)d of %(tournament)s is ready.") % {
            "number": number,
            "tournament": name,
        }
    return gettext("Your next table in %(tournament)s is ready.") % {"tournament": name}


def move_pages(moves: list[tuple[int, str]]) -> None:
    """Once committed: every open page of each person seated (their tournament page, a table
    page) goes to their new table, as quick pairing's do (a table page of the same game takes
    it in place, drawn by its socket: games/boards/page.py). Only at a live pace: a turn-based
    round is told in the inbox and never pulls a person away from a game they are playing."""
    for user_id, url in moves:
        events.seated.tell(user_id, url)
