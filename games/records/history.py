"""Finished games as players browse them: newest first, filtered by game and by player."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from accounts.models import User, signed_in
from games.access import watchable
from games.models import Game, Seat, house_tables

ENDED = (Game.Status.OVER, Game.Status.ABORTED)
"""The statuses of a game that was played and ended: listed in history."""


def ranked_seats() -> Prefetch[str, QuerySet[Seat], str]:
    """A game's seats with their players, best place first, as `game.ranked`."""
    return Prefetch(
        "seats",
        queryset=Seat.objects.select_related("user").order_by("place", "position", "pk"),
        to_attr="ranked",
    )


def visible_to(games: QuerySet[Game], user: User | AnonymousUser) -> QuerySet[Game]:
    """Public games, and the private ones this user sat at; as the host let them be watched."""
    if signed_in(user):
        mine = Seat.objects.filter(user=user).values("game_id")
        return watchable(games.filter(Q(private=False) | Q(pk__in=mine)), user)
    return watchable(games.filter(private=False), user)


def finished_games(
    user: User | AnonymousUser, *, kind: str = "", player: str = ""
) -> QuerySet[Game]:
    """Finished games the user may see, newest first, optionally of one kind or one player.

    Games a moderator aborted are listed too, marked (they have no places and no replay).
    """
    games = Game.objects.filter(status__in=ENDED).exclude(house_tables())
    if kind:
        games = games.filter(kind=kind)
    if player:
        games = games.filter(pk__in=Seat.objects.filter(user__username=player).values("game_id"))
    games = visible_to(games, user)
    return games.order_by("-finished_at", "-pk").prefetch_related(ranked_seats())
