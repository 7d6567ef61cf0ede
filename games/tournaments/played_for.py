"""A tournament's table names its tournament: "Round 2 of Sunday Swiss" with a link on the
table's page, and "Back to Sunday Swiss" where another table offers "Play again". A rematch is
not offered there: the tournament seats its people at their next table itself (a rematch beside
it would seat them twice, and count for nothing). Found by the core through
games.services.rematch.PLAYED_FOR (games/wiring.py puts `played_for` there)."""

from __future__ import annotations

from games.models import Game
from games.services import PlayedFor
from games.tournaments.models import Table


def played_for(game: Game) -> PlayedFor | None:
    """The tournament and round this table was played in (one query), or None."""
    table = Table.objects.filter(game=game).select_related("tournament", "round").first()
    if table is None:
        return None
    tournament = table.tournament
    if table.round is not None:
        words = f"Round {table.round.number} of {tournament.name}"
    else:
        words = f"Table {table.number} of {tournament.name}"
    return PlayedFor(words, tournament.name, tournament.get_absolute_url())
