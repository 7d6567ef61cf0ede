"""Tournaments through the API (games/tournaments/services/ does each): the ones under way or
to come, entering and leaving one, "I'm here" for a Swiss's next round. An entrant's event
stream says they are here too (as the tournament's page does), and tells `gameStart` for each
table a round seats them at.

A bot account enters only a tournament open to bots (`bots`: its maker ticked the box); the
service refuses the others in words."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, Q
from django.http import HttpRequest
from ninja import Field, Router, Schema

from accounts.models import User
from games.api.auth import person
from games.api.challenges import player
from games.api.errors import Error, Refused
from games.tournaments import services as tournaments
from games.tournaments.access import NOT_FOUND, may_see
from games.tournaments.models import Tournament

router = Router(tags=["tournaments"])

REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 413: Error, 429: Error}
UNDER_WAY = (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)
LISTED = 50


class TournamentOut(Schema):
    """A tournament as its list shows it."""

    id: int
    name: str
    game: str
    format: str
    pace: str
    status: str
    starts_at: datetime
    ends_at: datetime | None
    entrants: int
    private: bool
    bots: bool = Field(description="Open to bot accounts.")
    you: bool = Field(description="You are in it.")


class Entry(Schema):
    """A private tournament's invite code (from its link), if it is one."""

    invite: str | None = None


class Said(Schema):
    """What the tournament says to you."""

    said: str


def seen(me: User, tournament_id: int) -> Tournament:
    """The tournament this person may see; a private one looks missing to outsiders."""
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None or not may_see(found, me, []):
        raise Refused(404, NOT_FOUND)
    return found


@router.get("/tournaments", response={200: list[TournamentOut], **REFUSED}, summary="Tournaments")
def tournament_list(request: HttpRequest) -> list[TournamentOut]:
    """The public tournaments to come and under way, and yours, soonest first."""
    me = person(request)
    mine = Q(entrants__user=me, entrants__withdrawn=False)
    rows = (
        Tournament.objects.filter(Q(private=False) | mine, status__in=UNDER_WAY)
        .annotate(
            playing=Count("entrants", filter=Q(entrants__withdrawn=False), distinct=True),
            in_it=Count("entrants", filter=mine, distinct=True),
        )
        .order_by("starts_at", "pk")
    )
    return [
        TournamentOut(
            id=t.pk,
            name=t.name,
            game=t.kind,
            format=t.format,
            pace=t.pace,
            status=t.status,
            starts_at=t.starts_at,
            ends_at=t.ends_at,
            entrants=t.playing,
            private=t.private,
            bots=t.bots_welcome,
            you=bool(t.in_it),
        )
        for t in rows[:LISTED]
    ]


@router.post("/tournaments/{tournament_id}/join", response={200: Said, **REFUSED}, summary="Enter")
def join_tournament(request: HttpRequest, tournament_id: int, body: Entry) -> Said:
    """Enter a tournament (scope games:play or bot:play); a private one with its invite code; a
    bot account one open to bots."""
    me = player(request)
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None or not (may_see(found, me, []) or body.invite == found.invite):
        raise Refused(404, NOT_FOUND)
    return Said(said=tournaments.join(found, me, body.invite))


@router.post(
    "/tournaments/{tournament_id}/withdraw", response={200: Said, **REFUSED}, summary="Leave"
)
def withdraw_tournament(request: HttpRequest, tournament_id: int) -> Said:
    """Leave a tournament (scope games:play or bot:play): after its start a house bot plays
    your running table to its end."""
    me = player(request)
    return Said(said=tournaments.withdraw(seen(me, tournament_id), me))


@router.post(
    "/tournaments/{tournament_id}/here", response={200: Said, **REFUSED}, summary="I'm here"
)
def check_in(request: HttpRequest, tournament_id: int) -> Said:
    """Say you are here for the next round of a Swiss you are in (scope games:play or
    bot:play), as its page's "I'm here" does: a round does not wait for you, nor skip you as
    away. An open event stream says so too, while it is open."""
    me = player(request)
    return Said(said=tournaments.check_in(seen(me, tournament_id), me))
