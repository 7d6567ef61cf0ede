"""Bot accounts and their way to a table: an account with no game yet upgraded to a bot account
(`User.plays_by_api`), the open tables it could join, and the join itself through the page's own
"Take a seat" service (services.join).

A bot account is a person's program. It is not a house bot (`User.is_bot`: the site's own, with
no password, moved by the site): its person still signs in to manage its tokens, but its moves
come through the API only (services.moves.play_posted refuses the pages' and the socket's).
It shares the rating pool, marked as a bot everywhere its name appears and left off the
leaderboards' people-only view, as house bots are: one pool keeps ratings comparable across
people, house bots and bot accounts, and the mark keeps nobody fooled.
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest
from ninja import Router

from accounts.models import User
from games import services
from games.access import NO_SUCH_TABLE, joinable, listed
from games.api.auth import person
from games.api.errors import Error, Refused
from games.api.people import kind_or_404
from games.api.schemas import BotAccount, Join, Moved, OpenTable
from games.models import Game, Seat

router = Router(tags=["bots"])

REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 413: Error, 429: Error}
OPEN_TABLES = 30
"""The open tables one answer lists, newest first."""

PLAYED = (
    "This account has sat at a table already: only an account with no game yet can become a "
    "bot account (make a new account for your bot)."
)
HOUSE_BOT = "A house bot cannot be upgraded."
ALREADY = "This account is a bot account already."


def upgrade_refused(user: User) -> tuple[int, str] | None:
    """Why this account may not become a bot account (status and sentence), or None."""
    if user.is_bot:
        return 403, HOUSE_BOT
    if user.plays_by_api:
        return 409, ALREADY
    # Any seat, whatever became of its table: a bot account must never have played as a person.
    if Seat.objects.filter(user=user).exists():
        return 409, PLAYED
    return None


@transaction.atomic
def upgrade(user: User) -> User:
    """Make this account a bot account, for good; Refused when it may not be one."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    refused = upgrade_refused(locked)
    if refused:
        raise Refused(*refused)
    locked.plays_by_api = True
    locked.save(update_fields=["plays_by_api"])
    return locked


@router.post(
    "/bot/account/upgrade", response={200: BotAccount, **REFUSED}, summary="Become a bot account"
)
def upgrade_to_bot(request: HttpRequest) -> BotAccount:
    """Upgrade the token's account to a bot account, for good (scope bot:play): only an account
    that has never sat at a table. A bot account is marked as a bot wherever its name appears
    and plays through the API only."""
    me = upgrade(person(request, "bot:play"))
    return BotAccount(name=me.username, bot=me.plays_by_api)


@router.get("/tables/open", response={200: list[OpenTable], **REFUSED}, summary="Open tables")
def open_tables(request: HttpRequest, game: str | None = None) -> list[OpenTable]:
    """The public tables waiting for players that you could sit at, newest first, as the lobby
    lists them; `game`: one kind only."""
    me = person(request)
    games = joinable(listed(Game.objects.all()), me).select_related("host")
    if game:
        games = games.filter(kind=kind_or_404(game))
    return [
        OpenTable(
            id=g.pk,
            game=g.kind,
            host=g.host.username,
            seated=g.seated,  # type: ignore[attr-defined]
            capacity=g.capacity,
            rated=g.rated,
            pace=g.pace,
        )
        for g in games.order_by("-created_at", "-pk")[:OPEN_TABLES]
    ]


@router.post("/games/{game_id}/join", response={200: Moved, **REFUSED}, summary="Take a seat")
def join(request: HttpRequest, game_id: int, body: Join | None = None) -> Moved:
    """Take a free seat at an open table (scope games:play), as the page's "Take a seat" does;
    a private table needs its invite code."""
    me = person(request, "games:play")
    invite = body.invite if body is not None else None
    game = Game.objects.filter(pk=game_id).first()
    # A private table without its code looks missing: the API does not say it is there.
    if game is None or (game.private and invite != game.invite):
        raise Refused(404, NO_SUCH_TABLE)
    seat = services.join(game.pk, me, invite)
    return Moved(id=seat.game.pk, version=seat.game.version, status=seat.game.status)
