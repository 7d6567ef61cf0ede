"""Who may see a table: public tables, their seats, guests holding a private table's invite, and
the watchers the host allows (anyone, signed-in people, or the players only).

The pages (views, history) and the table's socket (consumers) share these checks; an invite
seen once is kept in the session, so the socket and later pages accept it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TypeVar

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from accounts.models import Block, User, signed_in
from games.models import Action, Game, Seat, TableSocket, house_tables

INVITES = "invites"
ONLY_PLAYERS = N_("Only the players may watch this game: the host chose so.")
SIGN_IN = N_("Log in to watch this game: the host lets only signed-in people watch.")
NO_SUCH_TABLE = N_("We could not find that table: it may be private, or the link may be mistyped.")


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware."""

    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request of a logged-in person (views behind login_required)."""

    user: User


View = TypeVar("View", bound=Callable[..., HttpResponse])


def posted(view: View) -> View:
    """A view that changes something: only a signed-in person's POST reaches it (anyone else is
    sent to log in; any other method is answered 405)."""
    return login_required(require_POST(view))


def keep_invite(session: SessionBase, key: str, pk: int) -> None:
    """Note that this session opened the invite to one private thing (a table under INVITES, a
    tournament under its own key), so its sockets and later pages accept it."""
    session[key] = sorted({*session.get(key, []), pk})


def invites_kept(session: SessionBase | None, key: str) -> list[int]:
    """The private things of one sort (key) whose invite this session has opened."""
    return list(session.get(key, [])) if session is not None else []


def remember_invite(request: HttpRequest, game: Game) -> None:
    """Keep a valid invite token in the session, so the socket and later pages accept it."""
    if request.GET.get("invite") == game.invite:
        keep_invite(request.session, INVITES, game.pk)


def invited_to(session: SessionBase | None) -> list[int]:
    """The private tables whose invite this session has shown."""
    return invites_kept(session, INVITES)


def can_watch(game: Game, user: User | AnonymousUser, invited: list[int]) -> bool:
    """Public tables are open to all; a private one to its seats and invited guests."""
    if not game.private or game.pk in invited:
        return True
    return signed_in(user) and game.seats.filter(user=user).exists()


def get_game_or_404(request: HttpRequest, game_id: int) -> Game:
    """The game this user may see; a private table looks missing to outsiders, and a table the
    host keeps from watchers refuses them in words (403, games/access.py)."""
    game = get_object_or_404(Game, pk=game_id)
    remember_invite(request, game)
    if not can_watch(game, request.user, invited_to(request.session)):
        raise Http404(NO_SUCH_TABLE)
    refused = watch_refused(game, request.user)
    if refused:
        raise PermissionDenied(refused)
    if blocked_from(game, request.user):
        raise PermissionDenied(NOT_FOR_YOU)
    return game


NOT_FOR_YOU = N_("This table is not available to you.")  # as joining it says (accounts.friends)


def blocked_from(game: Game, user: User | AnonymousUser) -> bool:
    """Whether someone seated at this open table blocks this viewer, who does not sit there: its
    waiting room is kept from them as its seats are (one query)."""
    if game.status != Game.Status.OPEN or not signed_in(user):
        return False
    seated = Seat.objects.filter(game=game)
    blockers = Block.objects.filter(blocked=user, blocker_id__in=seated.values("user_id"))
    return blockers.exclude(Exists(seated.filter(user=user))).exists()


# --- watchers: the host's choice at creation holds from the start on every page of the game ---


def watch_refused(
    game: Game, user: User | AnonymousUser, seats: Iterable[Seat] | None = None
) -> str:
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


def watchable(games: QuerySet[Game], user: User | AnonymousUser) -> QuerySet[Game]:
    """The games of a list this user may watch, by the host's choice (privacy apart)."""
    if not signed_in(user):
        return games.filter(watchers=Game.Watchers.ANYONE)
    mine = Seat.objects.filter(user=user).values("game_id")
    return games.filter(~Q(watchers=Game.Watchers.PLAYERS) | Q(pk__in=mine))


def listed(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games of a list anyone may find there: public ones, never a guided one (a tutorial)
    nor a house table (the lobby shows that on its own)."""
    return games.filter(private=False, guided=False).exclude(house_tables())


QUIET_SECONDS = 5 * 60
"""A running table with no move for this long and none of its people at it is left behind:
Watch live lists it no more (it comes back with the next move or the next of them to open it)."""


def live_to_watch(at: datetime | None = None) -> QuerySet[Game]:
    """The running tables of people that anyone may watch (the lobby's Watch live), but those
    left behind: no move for QUIET_SECONDS and none of their seated people here (a socket open,
    or closed within AWAY_SECONDS)."""
    at = at or timezone.now()
    games = Game.objects.filter(status=Game.Status.RUNNING, watchers=Game.Watchers.ANYONE)
    last_move = Action.objects.filter(game=OuterRef("pk")).order_by("-seq").values("created_at")
    seated_here = TableSocket.objects.filter(
        game=OuterRef("pk"),
        user__seats__game=OuterRef("pk"),
        seen_at__gte=at - timedelta(seconds=settings.AWAY_SECONDS),
    )
    games = games.annotate(last_move=Coalesce(Subquery(last_move[:1]), "started_at"))
    quiet_since = at - timedelta(seconds=QUIET_SECONDS)
    return listed(games).filter(Q(last_move__gte=quiet_since) | Exists(seated_here))


def not_blocked(games: QuerySet[Game], user: User | AnonymousUser) -> QuerySet[Game]:
    """The games of a list where no seated person blocks this user or is blocked by them (in
    the same query: a block keeps the user from sitting there)."""
    if not signed_in(user):
        return games
    between = Block.objects.filter(
        Q(blocker=user, blocked=OuterRef("user")) | Q(blocker=OuterRef("user"), blocked=user)
    )
    kept_from = Seat.objects.filter(game=OuterRef("pk")).filter(Exists(between))
    return games.exclude(Exists(kept_from))


def joinable(games: QuerySet[Game], user: User | AnonymousUser) -> QuerySet[Game]:
    """The open tables of a list with a free seat this user could take: not one they sit at
    already, none a block keeps them from; each with how many sit there (`seated`)."""
    seated = (
        Seat.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(count=Count("pk"))
        .values("count")
    )
    games = (
        games.filter(status=Game.Status.OPEN)
        .annotate(seated=Coalesce(Subquery(seated), 0))
        .filter(seated__lt=F("capacity"))
    )
    if not signed_in(user):
        return games
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return not_blocked(games, user).exclude(Exists(mine))
