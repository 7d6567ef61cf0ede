"""The account, people and leaderboards: what a profile page and a leaderboard show, as JSON;
games as the site's NDJSON export (games/web/history.py)."""

from __future__ import annotations

import contextlib

from django.core.handlers.asgi import ASGIRequest
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Router

from accounts import leaderboards
from accounts.models import Rating, User
from games import catalog
from games.api.auth import person, token_of
from games.api.errors import Error, Refused
from games.api.schemas import Account, Board, Person, Ranked, Rated, YourTable
from games.models import Game, Seat
from games.records import history
from games.services.yours import your_tables
from games.web.errors import NO_SUCH_GAME, NO_SUCH_PERSON
from games.web.history import export_lines, export_lines_async

router = Router(tags=["people"])

REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 413: Error, 429: Error}
NDJSON = {
    "responses": {
        200: {
            "description": "One finished game a line, oldest first: the site's export of a game.",
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        }
    }
}
"""How an export's answer is described in the schema (the operation returns its own response)."""


def ratings_of(someone: User) -> list[Rated]:
    """The person's ratings at each game they played rated, best first."""
    rows = Rating.objects.filter(user=someone, games__gte=1).order_by("-ordinal")
    return [
        Rated(game=r.kind, rating=r.rating, games=r.games, wins=r.wins, provisional=r.provisional)
        for r in rows
    ]


def named(name: str) -> User:
    """The account of that name; Refused (404) when nobody goes by it."""
    # A NUL byte is no part of any name, and PostgreSQL refuses it in a query. get(), not
    # first(): names are unique, and first()'s ORDER BY cost 0.3 ms of CPU a request to compile.
    if "\x00" not in name:
        with contextlib.suppress(User.DoesNotExist):
            return User.objects.get(username=name)
    raise Refused(404, NO_SUCH_PERSON)


def kind_or_404(kind: str) -> str:
    """A game on offer, by its slug."""
    if kind not in {spec.slug for spec in catalog.available()}:
        raise Refused(404, NO_SUCH_GAME)
    return kind


def games_export(request: HttpRequest, games: QuerySet[Game], name: str) -> StreamingHttpResponse:
    """These games as NDJSON, oldest first, read a chunk at a time (in a thread under ASGI)."""
    games = games.order_by("finished_at", "pk")
    lines = export_lines_async(games) if isinstance(request, ASGIRequest) else export_lines(games)
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Content-Disposition"] = f'inline; filename="{name}-games.ndjson"'
    return response


def finished_games(request: HttpRequest, someone: User, kind: str | None) -> QuerySet[Game]:
    """The person's finished games (of one kind if asked) that the token's person may see."""
    viewer = person(request)
    sat = Seat.objects.filter(user=someone).values("game_id")
    games = Game.objects.filter(status=Game.Status.OVER, pk__in=sat)
    if kind:
        games = games.filter(kind=kind_or_404(kind))
    return history.visible_to(games, viewer)


@router.get("/account", response={200: Account, **REFUSED}, summary="Your account")
def account(request: HttpRequest) -> Account:
    """The token's account and ratings (scope account:read)."""
    me = person(request, "account:read")
    return Account(
        name=me.username,
        bot=me.marked_bot,
        joined=me.date_joined,
        email_verified=me.email_verified,
        scopes=token_of(request).scope_list,
        ratings=ratings_of(me),
    )


@router.get("/account/games", response=REFUSED, openapi_extra=NDJSON, summary="Your finished games")
def account_games(request: HttpRequest, kind: str | None = None) -> StreamingHttpResponse:
    """Every finished game of yours, one export a line (scope account:read); `kind`: one game."""
    me = person(request, "account:read")
    return games_export(request, finished_games(request, me, kind), me.username)


@router.get("/account/tables", response={200: list[YourTable], **REFUSED}, summary="Your tables")
def account_tables(request: HttpRequest) -> list[YourTable]:
    """The tables you sit at still in play, those waiting on your move first, soonest deadline
    first (scope account:read): what a program polls to find its next move."""
    me = person(request, "account:read")
    return [
        YourTable(
            id=t.game.pk,
            game=t.game.kind,
            status=t.game.status,
            version=t.game.version,
            your_move=t.your_move,
            deadline=t.deadline,
            to_move=t.to_move,
        )
        for t in your_tables(me)
    ]


@router.get("/people/{name}", response={200: Person, **REFUSED}, summary="A person's profile")
def profile(request: HttpRequest, name: str) -> Person:
    """A person's public profile: bot or not, since when, ratings per game."""
    someone = named(name)
    return Person(
        name=someone.username,
        bot=someone.marked_bot,
        joined=someone.date_joined,
        ratings=ratings_of(someone),
    )


@router.get(
    "/people/{name}/games", response=REFUSED, openapi_extra=NDJSON, summary="A person's games"
)
def person_games(request: HttpRequest, name: str, kind: str | None = None) -> StreamingHttpResponse:
    """A person's finished games that you may see, one export a line; `kind`: one game."""
    someone = named(name)
    return games_export(request, finished_games(request, someone, kind), someone.username)


@router.get("/leaderboards/{kind}", response={200: Board, **REFUSED}, summary="A leaderboard")
def leaderboard(request: HttpRequest, kind: str, page: int = 1, bots: bool = False) -> Board:
    """One game's leaderboard, PAGE_SIZE lines a page; people only unless `bots`."""
    rows = leaderboards.board(kind_or_404(kind), bots=bots)
    paged = Paginator(rows, leaderboards.PAGE_SIZE).get_page(page)
    ranked = leaderboards.ranks(rows, list(paged.object_list), paged.start_index() - 1)
    return Board(
        game=kind,
        page=paged.number,
        pages=paged.paginator.num_pages,
        lines=[
            Ranked(
                rank=rank,
                name=row.user.username,
                bot=row.user.marked_bot,
                rating=row.rating,
                games=row.games,
                wins=row.wins,
            )
            for rank, row in ranked
        ],
    )
