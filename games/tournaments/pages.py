"""What the tournament pages show, read with a fixed number of queries however many people
entered: the standings (one query, services.standings), the tables of the round shown and the
tables under way (one query each), the rules in words, and what one viewer sees of themselves.
Read only: the services change the rows. The page's socket shares one read per version
(shared.py); a page request reads its own."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from django.core.paginator import Page, Paginator
from django.urls import reverse

from accounts.models import Block
from games import catalog
from games.boards import epoch_ms
from games.models import TURN_BASED, Game, Mute
from games.tournaments import draw, services
from games.tournaments.models import ChatLine, Entrant, Table, Tournament
from games.tournaments.services.base import ordinal
from games.tournaments.services.chat import closed_because
from games.tournaments.services.entry import LATE_JOIN_CUTOFF, check_join

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

TIE_BREAKS = (
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

    def standing_of(self, user: Any) -> services.Standing | None:
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
    tournament: Tournament, row: tuple[Any, ...], names: dict[int, tuple[str, bool]]
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


def award_words(award: dict[str, Any] | None) -> str:
    """What a person took from a counted table: "1st, +6" ("+3" for a bye; "" before)."""
    if award is None:
        return ""
    points = f"+{round(award['points'] + award.get('bonus', 0), 2):g}"
    place = award.get("place")
    return f"{ordinal(place)}, {points}" if isinstance(place, int) else points


def profile_url(username: str) -> str:
    """A person's page."""
    return reverse("profile", args=[username])


def table_url(tournament: Tournament, game_id: int | None, status: str, invite: str) -> str:
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


# --- one viewer ---------------------------------------------------------------------------


@dataclass(frozen=True)
class You:
    """What one viewer sees of themselves: their line, their table under way, and what they
    may press (with the words why they may not join, if they may not)."""

    signed_in: bool
    standing: services.Standing | None
    table: TableLine | None
    entrants: int
    over: bool
    may_join: bool = False
    refusal: str = ""
    may_withdraw: bool = False
    may_pause: bool = False
    may_resume: bool = False


def you_of(board: Board, user: Any) -> You:
    """The viewer's own line and table, from the board alone (no query)."""
    tournament = board.tournament
    standing = board.standing_of(user)
    table = board.under_way.get(standing.entrant) if standing is not None else None
    return You(
        signed_in=bool(getattr(user, "is_authenticated", False)),
        standing=standing,
        table=table if table is not None and table.running else None,
        entrants=board.playing,
        over=tournament.status in OVER,
    )


def you_with_buttons(board: Board, user: Any, invite: str | None, at: datetime) -> You:
    """The viewer's line with what they may press; whether they may join is the join's own
    check (a few queries, for a signed-in viewer who has not entered)."""
    shown = you_of(board, user)
    tournament = board.tournament
    if not shown.signed_in or shown.over:
        return shown
    standing = shown.standing
    if standing is None:
        try:
            check_join(tournament, user, invite, at)
        except services.ServiceError as refused:
            return replace(shown, refusal=str(refused))
        return replace(shown, may_join=True)
    if standing.withdrawn:
        return shown
    arena_running = tournament.is_arena and tournament.status == Tournament.Status.RUNNING
    return replace(
        shown,
        may_withdraw=True,
        may_pause=arena_running and not standing.paused,
        may_resume=arena_running and standing.paused,
    )


# --- the rules in words -------------------------------------------------------------------


def points_words(points: list[float]) -> str:
    """6/4/2/0."""
    return "/".join(f"{p:g}" for p in points)


def sizes(tournament: Tournament) -> range:
    """The table sizes this tournament may seat."""
    return range(tournament.fewest, tournament.seats + 1)


def pace_words(pace: str) -> str:
    """A pace as its choice says it."""
    return str(Game.Pace(pace).label) if pace in Game.Pace.values else pace


def entry_words(tournament: Tournament) -> str:
    """The entry conditions in a sentence."""
    game = catalog.get(tournament.kind).name
    low, high = tournament.rating_min, tournament.rating_max
    needs = []
    if low is not None and high is not None:
        needs.append(f"a {game} rating from {low} to {high}")
    elif low is not None:
        needs.append(f"a {game} rating of at least {low}")
    elif high is not None:
        needs.append(f"a {game} rating of at most {high}")
    if tournament.games_min:
        needs.append(f"{tournament.games_min} rated games of {game}")
    if tournament.age_min_days:
        needs.append(f"an account at least {tournament.age_min_days} days old")
    if not needs:
        return "Open to everyone with an account."
    return "Needs " + ", ".join(needs) + "."


def rules(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules, each a heading and its words, as the page states them."""
    spec = catalog.get(tournament.kind)
    seats = (
        f"{tournament.seats} people"
        if tournament.fewest == tournament.seats
        else f"{tournament.seats} people where the count allows, else as few as {tournament.fewest}"
    )
    own = bool(tournament.place_points)
    points = "; ".join(
        f"at a table of {n}: {points_words(draw.place_points(n, tournament.place_points))}"
        for n in sizes(tournament)
    )
    said = [
        ("Format", format_words(tournament)),
        (
            "Game",
            f"{spec.name}; pace: {pace_words(tournament.pace)}. Every game is rated as any other.",
        ),
        ("Tables", f"Seat {seats}."),
        (
            "Points by place",
            f"{points[:1].upper()}{points[1:]} ({'set by its creator' if own else 'the defaults'})."
            " People who share a place share the points of the places they cover.",
        ),
    ]
    if tournament.is_swiss:
        said.append(("Bye", bye_words(tournament)))
    else:
        said.append(("Streak", streak_words(tournament)))
        said.append(
            (
                "Pause",
                "You may pause (you keep your points and get no new table) and come back "
                "when you like.",
            )
        )
    said += [
        (
            "Tie-breaks",
            "1) points, 2) Buchholz (the sum of the points of everyone a person met, once per "
            "meeting), 3) wins (first places), 4) rating at entry.",
        ),
        ("Away", away_words(tournament)),
        ("Leaving", leaving_words(tournament)),
        ("Blocks", "Two people where one blocks the other never share a table."),
        ("Entry", entry_words(tournament)),
    ]
    if tournament.max_entrants is not None:
        said.append(("Entrants", f"At most {tournament.max_entrants}."))
    return said


def format_words(tournament: Tournament) -> str:
    """What kind of event it is, in a sentence."""
    if tournament.is_swiss:
        rounds = tournament.rounds or 0
        return (
            f"Swiss of {rounds} round{'s' if rounds != 1 else ''}: each round seats people by "
            "their standing, the leaders together, and keeps people who met before apart where "
            "it can."
        )
    late = int(LATE_JOIN_CUTOFF.total_seconds() // 60)
    return (
        f"Arena of {tournament.minutes} minutes: whoever finishes a table is seated again as "
        f"soon as enough are free. No table starts after the end; those under way still count. "
        f"Late entrants are taken until {late} minutes before the end."
    )


def bye_words(tournament: Tournament) -> str:
    """The Swiss bye rule."""
    if tournament.bye == Tournament.Bye.BOT:
        return (
            "When the count does not divide into tables, house bots fill the last table, "
            "so everyone plays."
        )
    points = draw.bye_points(tournament.seats, tournament.place_points)
    return (
        "When the count does not divide into tables, who is left over sits the round out "
        f"with a bye worth {points:g} points (the middle place's at a full table): the lowest "
        "standing among those with the fewest byes."
    )


def streak_words(tournament: Tournament) -> str:
    """The arena's streak bonus."""
    if not tournament.streak_bonus:
        return "No streak bonus."
    return f"A win after two wins in a row adds {tournament.streak_bonus} points."


def away_words(tournament: Tournament) -> str:
    """Who is skipped as away, and what it costs."""
    if tournament.pace in TURN_BASED:
        return "At this turn-based pace nobody is skipped as away."
    if tournament.is_arena:
        return (
            "At this live pace, an entrant with neither this page nor a table of the "
            "tournament open is not seated until they are back."
        )
    return (
        "At this live pace, an entrant with neither this page nor a table of the tournament "
        "open when a round is paired is skipped: no table, 0 points; two rounds in a row "
        "withdraw them."
    )


def leaving_words(tournament: Tournament) -> str:
    """What withdrawing does."""
    return (
        "Before the start your entry simply goes. After it you are out of the standings at the "
        "end (your points still count in others' Buchholz), and a house bot plays your table "
        "under way to its end."
    )


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
        )
        for s in standings.object_list
    ]


def live_context(board: Board, standings: Page[services.Standing]) -> dict[str, Any]:
    """What the live part of the page (status, podium, standings, tables) reads: the same for
    every viewer of one version, round and standings page (the socket renders it once)."""
    tournament = board.tournament
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "t": tournament,
        "board": board,
        "standings": standings,
        "lines": lines(standings, finished),
        "tie_breaks": TIE_BREAKS,
        "starts_ms": epoch_ms(tournament.starts_at),
        "ends_ms": epoch_ms(tournament.ends_at),
    }


# --- the chat -----------------------------------------------------------------------------

CHAT_SHOWN = 50
"""The newest lines a page shows."""


@dataclass(frozen=True)
class Said:
    """One chat line as a page shows it."""

    pk: int
    author_id: int
    username: str
    text: str


SAID_FIELDS = ("pk", "author_id", "author__username", "text")


def hidden_authors(user: Any) -> frozenset[int]:
    """Whose lines this viewer does not see: the people they block or muted (one query)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    blocked = Block.objects.filter(blocker=user).values_list("blocked_id", flat=True)
    muted = Mute.objects.filter(user=user).values_list("muted_id", flat=True)
    return frozenset(blocked.union(muted))


def recent_lines(
    tournament_id: int, hidden: frozenset[int] = frozenset(), limit: int = CHAT_SHOWN
) -> list[Said]:
    """The newest lines not hidden by a moderator, oldest first, without these authors'."""
    rows = ChatLine.objects.filter(tournament_id=tournament_id, hidden=False)
    if hidden:
        rows = rows.exclude(author_id__in=hidden)
    found = rows.order_by("-created_at", "-pk").values_list(*SAID_FIELDS)[:limit]
    return [Said(*row) for row in reversed(found)]


def chat_context(tournament: Tournament, user: Any, writer: bool) -> dict[str, Any]:
    """What the chat panel shows this viewer (`writer`: an entrant or the creator)."""
    closed = closed_because(tournament)
    return {
        "t": tournament,
        "lines": recent_lines(tournament.pk, hidden_authors(user)),
        "signed_in": bool(getattr(user, "is_authenticated", False)),
        "writable": writer and not closed,
        "closed": closed,
        "max_length": ChatLine.MAX_LENGTH,
    }
