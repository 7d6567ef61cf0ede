"""A table through the API: what the token's person may see of it (their seat's engine.view,
else a spectator's, as the page draws it), a move through the page's own path
(services.moves.play_posted), resigning, and the chat through services.chat."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from ninja import Router

from accounts.models import User
from games import services
from games.access import NO_SUCH_TABLE, NOT_FOR_YOU, blocked_from, can_watch, watch_refused
from games.api.auth import person
from games.api.errors import Error, Refused
from games.api.schemas import Chat, Line, Move, Moved, Say, SeatOut, Table
from games.boards.chat import chat_context
from games.boards.shared import TableAt, at_version
from games.models import Game, Seat
from games.services.moves import play_posted

router = Router(tags=["tables"])

REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 413: Error, 429: Error}
NOT_YOUR_MOVE = "It is not your move: wait for your turn (the table's `your_move` says when)."


def visible(user: User, game_id: int) -> Game:
    """The table this person may see (as the table's page lets them); Refused otherwise: a
    private table they do not sit at looks missing, a table kept from watchers says why."""
    try:  # get(), not first(): first()'s ORDER BY cost 0.4 ms of CPU a request to compile
        game = Game.objects.select_related("host").get(pk=game_id)
    except Game.DoesNotExist:
        raise Refused(404, NO_SUCH_TABLE) from None
    if not can_watch(game, user, []):
        raise Refused(404, NO_SUCH_TABLE)
    refused = watch_refused(game, user)
    if refused:
        raise Refused(403, refused)
    if blocked_from(game, user):
        raise Refused(403, NOT_FOR_YOU)
    return game


def seat_of(seats: list[Seat], user: User) -> Seat | None:
    """The person's seat among these, if they sit there."""
    return next((s for s in seats if s.user_id == user.pk), None)


def seat_out(seat: Seat, user: User) -> SeatOut:
    """A seat as anyone at the table sees it."""
    return SeatOut(
        name=seat.user.username,
        position=seat.position,
        bot=bool(seat.bot) or seat.user.marked_bot,
        you=seat.user_id == user.pk,
        resigned=seat.resigned,
        place=seat.place,
        score=seat.score,
    )


def table_out(table: TableAt, user: User) -> Table:
    """The table as this person sees it: their seat's view only, their legal actions if any."""
    game = table.game
    me = seat_of(table.seats, user)
    position = me.position if me is not None else None
    view: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = []
    moment = None
    if table.state is not None:
        kind = game.spec
        view = dict(kind.engine.view(table.state, position))
        moment = kind.moment(view)
        playing = game.status == Game.Status.RUNNING and me is not None and not me.resigned
        if playing and position is not None:
            legal = [dict(a) for a in kind.engine.legal_actions(table.state, position)]
    return Table(
        id=game.pk,
        game=game.kind,
        status=game.status,
        version=game.version,
        moment=moment,
        rated=game.rated,
        private=game.private,
        pace=game.pace,
        seats=[seat_out(s, user) for s in table.seats],
        you=position,
        your_move=bool(legal),
        view=view,
        legal=legal,
    )


@router.get("/games/{game_id}", response={200: Table, **REFUSED}, summary="A table")
def table(request: HttpRequest, game_id: int) -> Table:
    """A table as you may see it: your seat's view if you play there, else a spectator's."""
    me = person(request)
    return table_out(at_version(visible(me, game_id)), me)


def check_turn(table: TableAt, me: User, version: int) -> None:
    """A move on the current version from a seat that may not act now is out of turn (409);
    anything else the service decides, as for the page."""
    game = table.game
    seat = seat_of(table.seats, me)
    if seat is None or seat.position is None or table.state is None:
        return
    if game.status != Game.Status.RUNNING or version != game.version or seat.resigned:
        return
    if seat.position not in game.spec.engine.active_seats(table.state):
        raise Refused(409, NOT_YOUR_MOVE)


@router.post("/games/{game_id}/move", response={200: Moved, **REFUSED}, summary="Make a move")
def move(request: HttpRequest, game_id: int, body: Move) -> Moved:
    """Make one of your legal actions on the version you chose it at (scope games:play); a
    stale version is refused (409) unless `moment` says your choice still stands."""
    me = person(request, "games:play")
    game = visible(me, game_id)
    check_turn(at_version(game), me, body.version)
    fields = {"action": json.dumps(body.action), "version": str(body.version)}
    if body.moment:
        fields["moment"] = body.moment
    moved = play_posted(game.pk, me, fields, by_api=True)
    return Moved(id=moved.pk, version=moved.version, status=moved.status)


@router.post("/games/{game_id}/resign", response={200: Moved, **REFUSED}, summary="Resign")
def resign(request: HttpRequest, game_id: int) -> Moved:
    """Give up a running game (scope games:play): a house bot plays your seat to the end."""
    me = person(request, "games:play")
    game = services.resign(visible(me, game_id).pk, me)
    return Moved(id=game.pk, version=game.version, status=game.status)


@router.post(
    "/games/{game_id}/take-back", response={200: Moved, **REFUSED}, summary="Take your seat back"
)
def take_back(request: HttpRequest, game_id: int) -> Moved:
    """Play your seat again after a house bot took it (scope games:play): you resigned, or the
    table waited on you too long (a relaxed table's RELAXED_ABSENCE_SECONDS with no move; a bot
    that was down comes back this way)."""
    me = person(request, "games:play")
    game = services.take_seat_back(visible(me, game_id).pk, me)
    return Moved(id=game.pk, version=game.version, status=game.status)


def chat_out(game: Game, me: User) -> Chat:
    """The chat as this person sees it, or Refused when they may not read it."""
    ctx = chat_context(game, me)
    if not ctx["readable"]:
        raise Refused(403, "Only the players can read the chat at this table.")
    lines = ctx["lines"]
    assert isinstance(lines, list)
    return Chat(
        open=bool(ctx["writable"]),
        lines=[Line(id=m.pk, name=m.author.username, text=m.text, at=m.created_at) for m in lines],
    )


@router.get("/games/{game_id}/chat", response={200: Chat, **REFUSED}, summary="The chat")
def chat(request: HttpRequest, game_id: int) -> Chat:
    """The table's chat as you see it, newest last (scope chat:read)."""
    me = person(request, "chat:read")
    return chat_out(visible(me, game_id), me)


@router.post("/games/{game_id}/chat", response={200: Chat, **REFUSED}, summary="Say a line")
def say(request: HttpRequest, game_id: int, body: Say) -> Chat:
    """Say a line in the table's chat (scope chat:write); the chat as you see it after."""
    me = person(request, "chat:write")
    game = visible(me, game_id)
    services.chat.say(game, me, body.text)
    return chat_out(game, me)
