"""Who may see a tournament: a public one anyone; a private one its creator, its entrants and
whoever opened its link (the invite is kept in the session, so the page's socket and later
pages accept it). To anyone else a private tournament looks missing, as a private table does.
And what account may enter one at all (who_may_enter)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.http import Http404, HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from accounts.models import User, signed_in
from games.access import invites_kept, keep_invite
from games.tournaments.models import Entrant, Tournament

INVITES = "tournament_invites"
# English where raised (the API answers in English); the 404 page says it in the reader's language
# (games/web/errors.py: not_found_words).
NOT_FOUND = N_("We could not find that tournament: it may be private, or the link mistyped.")


def who_may_enter(tournament: Tournament, user: User) -> str:
    """Why this account may not enter the tournament ("" if it may): a house bot or a closed
    account never; a bot account only one open to bot accounts."""
    if user.is_bot or not user.is_active:
        return gettext("Only a person can enter a tournament.")
    if user.plays_by_api and not tournament.bots_welcome:
        return gettext("This tournament is not open to bot accounts.")
    return ""


def remember_invite(request: HttpRequest, tournament: Tournament) -> None:
    """Keep a valid invite in the session (only the link's token counts)."""
    if tournament.private and request.GET.get("invite") == tournament.invite:
        keep_invite(request.session, INVITES, tournament.pk)


def invited_to(session: SessionBase | None) -> list[int]:
    """The private tournaments whose link this session has opened."""
    return invites_kept(session, INVITES)


def may_see(tournament: Tournament, user: User | AnonymousUser, invited: list[int]) -> bool:
    """Public ones to all; a private one to its creator, its entrants and invited sessions."""
    if not tournament.private or tournament.pk in invited:
        return True
    if not signed_in(user):
        return False
    if tournament.creator_id == user.pk:
        return True
    return Entrant.objects.filter(tournament=tournament, user_id=user.pk).exists()


def invite_known(tournament: Tournament, invited: list[int]) -> str | None:
    """The tournament's invite if this session opened its link (what a join shows)."""
    return tournament.invite if tournament.pk in invited else None


def tournament_or_404(request: HttpRequest, pk: int) -> Tournament:
    """The tournament this viewer may see; a private one looks missing to outsiders."""
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise Http404(NOT_FOUND)
    remember_invite(request, tournament)
    if not may_see(tournament, request.user, invited_to(request.session)):
        raise Http404(NOT_FOUND)
    return tournament
