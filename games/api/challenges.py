"""Challenges through the API (games/challenges/services.py does each): challenge a person or a
bot account to a table, list yours, accept, decline or cancel. The challenged hears of one on
their event stream (`challenge`), the challenger of its answer (`challengeAccepted`,
`challengeDeclined`); a person may answer on the site as well."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from django.utils import timezone
from ninja import Field, Router, Schema
from pydantic import StrictBool

from accounts.models import User
from games.api.auth import person, token_of
from games.api.errors import Error, Refused
from games.challenges import services as challenges
from games.challenges.models import Challenge
from games.models import Game

router = Router(tags=["challenges"])

REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 413: Error, 429: Error}
PLAY = ("games:play", "bot:play")


class Ask(Schema):
    """What the challenge is to: a game, its seats (the two of you, house bots in the rest), its
    pace, rated or not."""

    kind: str = Field(description="The game: cakehalla, midnight-bakery, ...")
    players: int = Field(2, ge=2, le=12)
    pace: str = Field("relaxed", description=f"One of {', '.join(Game.Pace.values)}.")
    rated: StrictBool = True  # 0 or "no" refused in words, as the schema says


class ChallengeOut(Schema):
    """One challenge as its two people see it."""

    id: int
    challenger: str
    challenged: str
    kind: str
    players: int
    pace: str
    rated: bool
    status: str = Field(description="open, accepted, declined, cancelled or expired.")
    expires_at: datetime | None = Field(
        description="When an open challenge lapses unanswered (then it is expired)."
    )
    game: int | None = Field(description="The table an accepted challenge dealt.")


def challenge_out(found: Challenge) -> ChallengeOut:
    return ChallengeOut(
        id=found.pk,
        challenger=found.challenger.username,
        challenged=found.challenged.username,
        kind=found.kind,
        players=found.players,
        pace=found.pace,
        rated=found.rated,
        status=found.status_now(),
        expires_at=found.expires_at,
        game=found.game_id,
    )


def player(request: HttpRequest) -> User:
    """The token's person, if the token may play (games:play or bot:play)."""
    me = person(request)
    if not any(scope in token_of(request).scope_list for scope in PLAY):
        raise Refused(403, "This token may not do that: it needs the scope “games:play”.")
    return me


@router.post("/challenge/{name}", response={200: ChallengeOut, **REFUSED}, summary="Challenge")
def make_challenge(request: HttpRequest, name: str, body: Ask) -> ChallengeOut:
    """Challenge the person (or bot account) called `name` to a table (scope games:play)."""
    me = player(request)
    made = challenges.challenge(me, name, body.kind, body.players, body.pace, body.rated)
    return challenge_out(made)


@router.get("/challenges", response={200: list[ChallengeOut], **REFUSED}, summary="Your challenges")
def your_challenges(request: HttpRequest, open: bool = True) -> list[ChallengeOut]:
    """The challenges you made or were made, newest first (`open`: only those waiting)."""
    found = challenges.mine(player(request))
    if open:
        found = found.filter(status=Challenge.Status.OPEN).exclude(expires_at__lte=timezone.now())
    return [challenge_out(c) for c in found[:50]]


@router.post(
    "/challenge/{challenge_id}/accept", response={200: ChallengeOut, **REFUSED}, summary="Accept"
)
def accept_challenge(request: HttpRequest, challenge_id: int) -> ChallengeOut:
    """Accept a challenge made to you: its table is dealt at once (its `game`)."""
    return challenge_out(challenges.accept(challenge_id, player(request)))


@router.post(
    "/challenge/{challenge_id}/decline", response={200: ChallengeOut, **REFUSED}, summary="Decline"
)
def decline_challenge(request: HttpRequest, challenge_id: int) -> ChallengeOut:
    """Decline a challenge made to you; the challenger is told."""
    return challenge_out(challenges.decline(challenge_id, player(request)))


@router.post(
    "/challenge/{challenge_id}/cancel", response={200: ChallengeOut, **REFUSED}, summary="Cancel"
)
def cancel_challenge(request: HttpRequest, challenge_id: int) -> ChallengeOut:
    """Take back a challenge of yours before it is answered."""
    return challenge_out(challenges.cancel(challenge_id, player(request)))
