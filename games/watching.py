"""Who may watch a table: the host's choice at creation (anyone, signed-in people, the players).

An open table stays visible to whoever could sit at it (its waiting room shows no card); from the
start on, the host's choice holds on every page that shows the game: the table, its board, its
socket, its replay, the history lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet

from games.models import Game, Seat

ONLY_PLAYERS = "Only the players may watch this game: the host chose so."
SIGN_IN = "Log in to watch this game: the host lets only signed-in people watch."


def signed_in(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def watch_refused(game: Game, user: Any, seats: Iterable[Seat] | None = None) -> str:
    """Why this user may not watch the game ("" when they may); `seats`: already read."""
    if game.status == Game.Status.OPEN or game.watchers == Game.Watchers.ANYONE:
        return ""
    if signed_in(user):
        if game.watchers == Game.Watchers.PEOPLE:
            return ""
        if seats is not None:
            seated = any(s.user_id == user.pk for s in seats)
        else:
            seated = game.seats.filter(user=user).exists()
        return "" if seated else ONLY_PLAYERS
    return ONLY_PLAYERS if game.watchers == Game.Watchers.PLAYERS else SIGN_IN


def watchable(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
    """The games of a list this user may watch, by the host's choice (privacy apart)."""
    if not signed_in(user):
        return games.filter(watchers=Game.Watchers.ANYONE)
    mine = Seat.objects.filter(user=user).values("game_id")
    return games.filter(~Q(watchers=Game.Watchers.PLAYERS) | Q(pk__in=mine))
