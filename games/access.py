"""Who may see a table: public tables, their seats, and guests holding a private table's invite.

The pages (views, history) and the table's socket (consumers) share these checks; an invite
seen once is kept in the session, so the socket and later pages accept it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django_htmx.middleware import HtmxDetails

from accounts.models import User
from games.models import Game
from games.watching import watch_refused

INVITES = "invites"


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware."""

    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request of a logged-in person (views behind login_required)."""

    user: User


def remember_invite(request: HttpRequest, game: Game) -> None:
    """Keep a valid invite token in the session, so the socket and later pages accept it."""
    if request.GET.get("invite") == game.invite:
        known = set(request.session.get(INVITES, []))
        known.add(game.pk)
        request.session[INVITES] = sorted(known)


def invited_to(session: Any) -> list[int]:
    """The private tables whose invite this session has shown."""
    return list(session.get(INVITES, [])) if session is not None else []


def can_watch(game: Game, user: Any, invited: list[int]) -> bool:
    """Public tables are open to all; a private one to its seats and invited guests."""
    if not game.private or game.pk in invited:
        return True
    return bool(getattr(user, "is_authenticated", False) and game.seats.filter(user=user).exists())


def get_game_or_404(request: HttpRequest, game_id: int) -> Game:
    """The game this user may see; a private table looks missing to outsiders, and a table the
    host keeps from watchers refuses them in words (403, games/watching.py)."""
    game = get_object_or_404(Game, pk=game_id)
    remember_invite(request, game)
    if not can_watch(game, request.user, invited_to(request.session)):
        raise Http404("No such table.")
    refused = watch_refused(game, request.user)
    if refused:
        raise PermissionDenied(refused)
    return game
