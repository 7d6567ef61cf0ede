"""What the tournament pages show, read with a fixed number of queries however many people
entered: the standings (one query, services.standings), the tables of the round shown and the
tables under way (one query each). Read only: the services change the rows. What one viewer sees
of themselves is viewer.py. The page's socket shares one read per version (shared.py); a page
request reads its own. The rules in words are rules.py; the chat panel, chat_panel.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import cast

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.boards import epoch_ms
from games.models import Game
from games.tournaments import services
from games.tournaments.models import Entrant, Table, Tournament
from games.tournaments.services.base import ordinal

STANDINGS_PAGE = 50
"""Standing lines a page shows (the viewer's own line is always shown beside them)."""

TABLES_SHOWN = 50
"""Tables listed for a round (or an arena's, those under way first); the viewer's own always."""

ARENA_TABLES_READ = 500
"""An arena's newest tables read for its list: enough for TABLES_SHOWN, bounded however long."""

OVER = (
    Tournament.Status.FINISHED,
    Tournament.Status.CANCELLED,
    Tournament.Status.STOPPED,
)

TIE_BREAKS = gettext_lazy(
    "Ties are broken by Buchholz (the sum of the points of everyone a person met, once per "
    "meeting), then by wins (first places), then by rating at entry."
)


@dataclass(frozen=True)
class Seated:
    """A person at a tournament table, and what they were awarded once it was counted (in
    words: "1st, +6")."""

    entrant: int
    username: str
    left: bool
    profile: str
    award: str = ""


@dataclass(frozen=True)
class TableLine:
    """One table (or a Swiss bye) as the page lists it, with where to watch or replay it."""

    pk: int
    round: int | None
    number: int
    game_id: int | None
    status: str
    recorded: bool
    people: tuple[Seated, ...]
    url: str

    @property
    def is_bye(self) -> bool:
        return self.game_id is None

    @property
    def running(self) -> bool:
        return self.status == Game.Status.RUNNING

    @property
    def over(self) -> bool:
        return self.status == Game.Status.OVER

    @property
    def aborted(self) -> bool:
        return self.status == Game.Status.ABORTED


@dataclass(frozen=True)
class Board:
    """A tournament at one version as its page shows it: every standing line (in order), the
    tables of the round shown, and each entrant's table under way."""

    tournament: Tournament
    standings: list[services.Standing]
    round: int | None
    tables: list[TableLine]
    more_tables: int
    under_way: dict[int, TableLine]

    @property
    def version(self) -> int:
        return self.tournament.version

    @cached_property
    def by_user(self) -> dict[int, services.Standing]:
        """Each entrant's line by their person (made once per board)."""
        return {s.user_id: s for s in self.standings}

    @cached_property
    def playing(self) -> int:
        """How many are in (not withdrawn)."""
        return sum(1 for s in self.standings if not s.withdrawn)

    @cached_property
    def ranked(self) -> bool:
        """Whether places mean anything yet: a game has finished (before it, all are level)."""
        return any(s.games for s in self.standings)

    @property
    def rounds(self) -> list[int]:
        """The Swiss rounds paired so far."""
        return list(range(1, self.tournament.current_round + 1))

    @property
    def podium(self) -> list[services.Standing]:
        """The first three at the end (none before it)."""
        if self.tournament.status != Tournament.Status.FINISHED:
            return []
        return [s for s in self.standings if s.place is not None and s.place <= 3]

    def page(self, number: object) -> Page[services.Standing]:
        """One page of the standings (the last one for a number past it, the first for
        garbage)."""
        asked = number if isinstance(number, int | str) else None
        return Paginator(self.standings, STANDINGS_PAGE).get_page(asked)

    def standing_of(self, user: User | AnonymousUser) -> services.Standing | None:
        """The viewer's own line, if they entered."""
        pk = getattr(user, "pk", None)
        return self.by_user.get(pk) if isinstance(pk, int) else None


def shown_round(tournament: Tournament, asked: object) -> int | None:
    """The Swiss round a page shows: the one asked for if it was paired, else the one under way
    (None for an arena, or before the first round)."""
    if not tournament.is_swiss or tournament.current_round == 0:
        return None
    try:
        number = int(str(asked))
    except ValueError:
        return tournament.current_round
    return number if 1 <= number <= tournament.current_round else tournament.current_round


def read_board(tournament: Tournament, asked_round: object = None) -> Board:
    """The tournament as stored now (its row as given): three queries (four once finished)."""
    standings = services.standings(tournament)
    names = {s.entrant: (s.username, s.withdrawn) for s in standings}
    if tournament.status == Tournament.Status.FINISHED:  # those who left are off its standings
        left = Entrant.objects.filter(tournament=tournament, withdrawn=True)
        names.update({pk: (name, True) for pk, name in left.values_list("pk", "user__username")})
    number = shown_round(tournament, asked_round)
    shown = table_rows(tournament, number, names)
    under_way = {e.entrant: line for line in running_tables(tournament, names) for e in line.people}
    listed = arranged(tournament, shown)
    return Board(
        tournament=tournament,
        standings=standings,
        round=number,
        tables=listed[:TABLES_SHOWN],
        more_tables=max(0, len(listed) - TABLES_SHOWN),
        under_way=under_way,
    )


TABLE_FIELDS = (
    "pk",
    "round__number",
    "number",
    "game_id",
    "game__status",
    "game__invite",
    "recorded",
    "people",
    "awarded",
)
# A table as TABLE_FIELDS reads it: its id, round (None in an arena), number, game (None for a
# bye) with its status and invite, whether counted, its entrants and what each was awarded.
TableRow = tuple[
    int,
    int | None,
    int,
    int | None,
    str | None,
    str | None,
    bool,
    list[int],
    list[dict[str, object]],
]


def table_rows(
    tournament: Tournament, number: int | None, names: dict[int, tuple[str, bool]]
) -> list[TableLine]:
    """The tables of Swiss round `number`, or an arena's newest tables (one query)."""
    rows = Table.objects.filter(tournament=tournament)
    if tournament.is_swiss:
        if number is None:
            return []
        rows = rows.filter(round__number=number).order_by("number")
    else:
        rows = rows.order_by("-number")[:ARENA_TABLES_READ]
    return [table_line(tournament, row, names) for row in rows.values_list(*TABLE_FIELDS)]


def running_tables(tournament: Tournament, names: dict[int, tuple[str, bool]]) -> list[TableLine]:
    """The tables whose results are not counted yet (one query)."""
    if tournament.status != Tournament.Status.RUNNING:
        return []
    rows = Table.objects.filter(tournament=tournament, recorded=False).order_by("number")
    return [table_line(tournament, row, names) for row in rows.values_list(*TABLE_FIELDS)]


def table_line(
    tournament: Tournament, row: TableRow, names: dict[int, tuple[str, bool]]
) -> TableLine:
    """One table's row as the page lists it."""
    pk, round_number, number, game_id, status, invite, recorded, people, awarded = row
    won = {a["entrant"]: a for a in awarded or []}
    seated = []
    for entrant in people:
        username, left = names.get(entrant, ("someone who left", True))
        award = award_words(won.get(entrant))
        seated.append(Seated(entrant, username, left, profile_url(username), award))
    return TableLine(
        pk,
        round_number,
        number,
        game_id,
        "bye" if game_id is None else str(status),
        recorded,
        tuple(seated),
        table_url(tournament, game_id, str(status or ""), invite),
    )


def award_words(award: dict[str, object] | None) -> str:
    """What a person took from a counted table: "1st, +6" ("+3" for a bye; "" before)."""
    if award is None:
        return ""
    won = cast(float, award["points"]) + cast(float, award.get("bonus", 0))
    points = f"+{round(won, 2):g}"
    place = award.get("place")
    return f"{ordinal(place)}, {points}" if isinstance(place, int) else points


def profile_url(username: str) -> str:
    """A person's page."""
    return reverse("profile", args=[username])


def table_url(tournament: Tournament, game_id: int | None, status: str, invite: str | None) -> str:
    """Where a table is watched (under way) or replayed (finished); "" for a bye or an aborted
    game. A private tournament's tables are private too: its link carries the table's invite,
    as everyone who may see the tournament may watch its tables."""
    if game_id is None:
        return ""
    if status == Game.Status.RUNNING:
        url = reverse("games:table", args=[game_id])
    elif status == Game.Status.OVER:
        url = reverse("games:replay", args=[game_id])
    else:
        return ""
    return f"{url}?invite={invite}" if tournament.private else url


def arranged(tournament: Tournament, tables: list[TableLine]) -> list[TableLine]:
    """A Swiss round's tables in their order; an arena's, those under way first."""
    if tournament.is_swiss:
        return tables
    return sorted(tables, key=lambda t: (t.recorded, -t.number))


# --- what the live part of the page shows ---------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One standings line as the page prints it: each figure in words already (a page prints
    hundreds, and formatting them in the template was most of its cost)."""

    user_id: int
    rank: str
    username: str
    profile: str
    points: str
    buchholz: str
    wins: str
    games: str
    byes: str
    rating: str
    paused: bool
    withdrawn: bool
    podium: bool
    left: str = ""


def figure(value: float) -> str:
    """Points as the standings print them: 6, 4.5, 3.33."""
    return f"{round(value, 2):g}"


def lines(standings: Page[services.Standing], finished: bool) -> list[Line]:
    """A page of the standings as the page prints it."""
    return [
        Line(
            s.user_id,
            str(s.rank),
            s.username,
            profile_url(s.username),
            figure(s.points),
            figure(s.buchholz),
            str(s.wins),
            str(s.games),
            str(s.byes),
            str(s.rating),
            s.paused,
            s.withdrawn,
            finished and s.place is not None and s.place <= 3,
            s.withdrawn_words,
        )
        for s in standings.object_list
    ]


def live_context(board: Board, standings: Page[services.Standing]) -> dict[str, object]:
    """What the live part of the page (status, podium, standings, tables) reads: the same for
    every viewer of one version, round and standings page (the socket renders it once)."""
    tournament = board.tournament
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "t": tournament,
        "board": board,
        "standings": standings,
        "lines": lines(standings, finished),
        "ranked": board.ranked,
        "tie_breaks": TIE_BREAKS,
        "starts_ms": epoch_ms(tournament.starts_at),
        "ends_ms": epoch_ms(tournament.ends_at),
        "check_in_by": check_in_by(tournament),
    }


def check_in_by(tournament: Tournament) -> datetime | None:
    """When a Swiss round waiting for the away is played at the latest (None if none waits)."""
    if tournament.round_due_at is None:
        return None
    return tournament.round_due_at + timedelta(seconds=settings.SWISS_CHECK_IN_SECONDS)
