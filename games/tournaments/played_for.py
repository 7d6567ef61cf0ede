"""A tournament's table names its tournament: "Round 2 of Sunday Swiss" with a link on the
table's page, and "Back to Sunday Swiss" where another table offers "Play again". A rematch is
not offered there: the tournament seats its people at their next table itself (a rematch beside
it would seat them twice, and count for nothing). Found by the core through
games.services.played_for.PLAYED_FOR (games/wiring.py puts `played_for` there)."""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from games.models import Game
from games.services import PlayedFor
from games.tournaments.models import Table, Tournament

ROUND_OF = gettext_lazy("Round {number} of {tournament}")
TABLE_OF = gettext_lazy("Table {number} of {tournament}")


def played_for(game: Game) -> PlayedFor | None:
    """The tournament and round this table was played in (one query of the four values the
    line shows, not three whole rows: each of a Swiss round's 200 pages asks it), or None. Its
    words are said in the language active where they are shown (lazily: one read serves every
    viewer of a version, games/boards/shared.Event, in their own languages)."""
    found = (
        Table.objects.filter(game=game)
        .values_list("tournament_id", "tournament__name", "round__number", "number")
        .first()
    )
    if found is None:
        return None
    tournament_id, name, round_number, number = found
    if round_number is not None:
        words = format_lazy(ROUND_OF, number=round_number, tournament=name)
    else:
        words = format_lazy(TABLE_OF, number=number, tournament=name)
    return PlayedFor(words, name, Tournament(pk=tournament_id).get_absolute_url())
