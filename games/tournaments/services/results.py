"""What the tables' results make: each table recorded once, the standings recomputed from the
recorded tables (one function), the standings read, and the end with its places."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.utils.translation import gettext

from games.models import Game, Seat
from games.notifications.services import Told
from games.tournaments import scoring
from games.tournaments.models import Entrant, Table, Tournament, withdrawn_words
from games.tournaments.services.base import bump, lock, now, ordinal, tell_each

FIGURES = ("points", "buchholz", "wins", "games", "byes", "streak")


def recount(tournament: Tournament) -> int:
    """Every entrant's figures recomputed from the recorded tables in the order they were made
    (the order played); only the rows that changed are written. How many changed."""
    tables = Table.objects.filter(tournament=tournament, recorded=True).order_by("pk")
    history: dict[int, list[scoring.Played]] = defaultdict(list)
    for people, awarded, game_id in tables.values_list("people", "awarded", "game_id"):
        for award in awarded:
            entrant = award["entrant"]
            history[entrant].append(
                scoring.Played(
                    points=award["points"] + award.get("bonus", 0),
                    won=award.get("place") == 1,
                    opponents=tuple(e for e in people if e != entrant),
                    bye=game_id is None,
                )
            )
    figures = scoring.figures(history)
    changed = []
    for entrant in Entrant.objects.filter(tournament=tournament).only("pk", *FIGURES):
        new = figures.get(entrant.pk, scoring.Figures(0.0, 0.0, 0, 0, 0, 0))
        if any(getattr(entrant, f) != getattr(new, f) for f in FIGURES):
            for f in FIGURES:
                setattr(entrant, f, getattr(new, f))
            changed.append(entrant)
    Entrant.objects.bulk_update(changed, list(FIGURES), batch_size=500)
    return len(changed)


def awards(tournament: Tournament, table: Table, seats: list[Seat]) -> list[dict[str, object]]:
    """What each entrant at a finished table earns: the points of their place (a shared place
    shares its points), and in an arena the streak bonus."""
    places = [s.place or len(seats) for s in seats]
    points = scoring.points_by_place(places, tournament.place_points)
    by_user = dict(Entrant.objects.filter(pk__in=table.people).values_list("user_id", "pk"))
    streaks = dict(Entrant.objects.filter(pk__in=table.people).values_list("pk", "streak"))
    awarded: list[dict[str, object]] = []
    for seat, place, earned in zip(seats, places, points, strict=True):
        entrant = by_user.get(seat.user_id)
        if entrant is None:
            continue  # a house bot's seat
        bonus = 0
        if tournament.is_arena:
            bonus = scoring.streak_bonus(place == 1, streaks[entrant], tournament.streak_bonus)
        awarded.append({"entrant": entrant, "place": place, "points": earned, "bonus": bonus})
    return awarded


def record_table(table_id: int) -> bool:
    """Count a finished table's results, exactly once whoever calls (the game's end signal and
    the sweep both do): under the tournament's lock and the table's, only an unrecorded table of
    an ended game is counted. Whether this call counted it."""
    with transaction.atomic():
        tournament_id = Table.objects.filter(pk=table_id).values_list("tournament_id", flat=True)
        found = tournament_id.first()
        if found is None:
            return False
        tournament = lock(found)
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.recorded or table.game_id is None:
            return False
        if tournament.status != Tournament.Status.RUNNING:
            return False  # stopped by a moderator: the standings stay as they were
        game = Game.objects.filter(pk=table.game_id).only("status").get()
        if game.status == Game.Status.OVER:
            seats = list(Seat.objects.filter(game_id=table.game_id).order_by("position"))
            table.awarded = awards(tournament, table, seats)
        elif game.status == Game.Status.ABORTED:
            table.awarded = []  # a moderator stopped the game: nobody scores at it
        else:
            return False
        table.recorded, table.recorded_at = True, now()
        table.save(update_fields=["recorded", "recorded_at", "awarded"])
        Entrant.objects.filter(pk__in=table.people, table=table).update(free_since=now())
        recount(tournament)
        bump(tournament)
    return True


@dataclass(frozen=True)
class Standing:
    """One line of the standings as the page shows it."""

    rank: int
    entrant: int
    user_id: int
    username: str
    points: float
    buchholz: float
    wins: int
    games: int
    byes: int
    rating: int
    paused: bool
    withdrawn: bool
    place: int | None
    withdrawn_why: str = ""
    withdrawn_round: int | None = None

    @property
    def withdrawn_words(self) -> str:
        """Why they are out, in a few words ("" while in)."""
        return withdrawn_words(self.withdrawn, self.withdrawn_why, self.withdrawn_round)


STANDING_ORDER = ("-points", "-buchholz", "-wins", "-rating", "pk")
"""The tie-breaks, as the page states them: points, Buchholz, wins, rating at entry."""


def standings(tournament: Tournament, *, limit: int | None = None) -> list[Standing]:
    """The standings now (one query on the standings index): those who left are listed last
    while it runs, and not at all once it is finished."""
    rows = Entrant.objects.filter(tournament=tournament)
    if tournament.status == Tournament.Status.FINISHED:
        rows = rows.filter(withdrawn=False)
    fields = (
        "pk",
        "user_id",
        "user__username",
        "points",
        "buchholz",
        "wins",
        "games",
        "byes",
        "rating",
        "paused",
        "withdrawn",
        "place",
        "withdrawn_why",
        "withdrawn_round",
    )
    found = list(rows.order_by(*STANDING_ORDER).values_list(*fields)[:limit])
    found.sort(key=lambda r: r[10])  # those who left after the rest, in order (a stable sort)
    return [Standing(i + 1, *row) for i, row in enumerate(found)]


def finished_words(place: int, name: str) -> str:
    """A finished tournament's word to one entrant, in the language active."""
    return gettext("You finished %(place)s in %(tournament)s.") % {
        "place": ordinal(place),
        "tournament": name,
    }


def finish(tournament: Tournament) -> None:
    """The tournament is over (its row locked): places by the standings, everyone told theirs."""
    recount(tournament)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now()
    ranked = list(
        Entrant.objects.filter(tournament=tournament, withdrawn=False).order_by(*STANDING_ORDER)
    )
    for place, entrant in enumerate(ranked, start=1):
        entrant.place = place
    Entrant.objects.bulk_update(ranked, ["place"], batch_size=500)
    bump(tournament, ["status", "finished_at"])
    key = f"tournament:{tournament.pk}:place"
    tell_each(
        tournament,
        [
            Told(e.user_id, key, partial(finished_words, e.place or 0, tournament.name))
            for e in ranked
        ],
    )
