"""A person's profile (their games, ratings and charts) and the leaderboards."""

from collections.abc import Iterable
from typing import TypedDict, cast

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Avg, Count, Max, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from accounts import leaderboards
from accounts.emails import under_limit
from accounts.models import MIN_RANKED_GAMES, RANKED_RECENT_DAYS, RatingPoint, User
from games import catalog, charts, services
from games.access import AuthedRequest, not_blocked, watch_refused
from games.models import LIVE, Game, Seat, house_tables
from games.records import history, personal
from games.web.errors import NO_SUCH_GAME, NO_SUCH_PERSON
from games.web.forms import DeleteAccountForm
from games.web.history import with_tournaments

RECENT_FINISHED = 15
HISTORY_POINTS = 60


class Played(TypedDict):
    """A person's finished games of one kind: how many, won, the average and best score."""

    game__kind: str
    games: int
    wins: int
    average: float | None
    best: int | None


def finished_by_kind(person: User) -> dict[str, Played]:
    """Per game kind: the person's finished games, wins, average and best score (one query)."""
    rows = cast(
        "Iterable[Played]",
        Seat.objects.filter(user=person, game__status=Game.Status.OVER, game__guided=False)
        .exclude(house_tables("game__"))
        .values("game__kind")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(winner=True)),
            average=Avg("score"),
            best=Max("score"),
        ),
    )
    return {row["game__kind"]: row for row in rows}


def game_records(person: User, played: dict[str, Played]) -> list[dict[str, object]]:
    """Per game the person is rated at: the rating (provisional or not), the games, wins,
    average and best score, and the rating's history as a small chart (a query per game)."""
    names = dict(catalog.choices())
    out = []
    for rating in person.ratings.filter(games__gte=1).order_by("-ordinal"):
        points = RatingPoint.objects.filter(user=person, kind=rating.kind).order_by("-at", "-pk")
        history = [p.rating for p in reversed(points[:HISTORY_POINTS])]
        out.append(
            {
                "row": rating,
                "name": names.get(rating.kind, rating.kind),
                "played": played.get(rating.kind, {}),
                "chart": charts.line(history),
            }
        )
    return out


@require_http_methods(["GET"])
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: ratings per game, recent finished games, and games still going."""
    if "\x00" in username:
        raise Http404(NO_SUCH_PERSON)
    person = get_object_or_404(User, username=username)
    played_by_kind = finished_by_kind(person)
    ratings = game_records(person, played_by_kind)
    finished = [
        (game, next((s for s in game.ranked if s.user_id == person.pk), None))  # type: ignore[attr-defined]
        for game in with_tournaments(history.finished_games(request.user, player=person.username))[
            :RECENT_FINISHED
        ]
    ]
    going = Seat.objects.filter(user=person).filter(game__status__in=LIVE)
    if request.user.pk != person.pk:
        # An open table a block keeps the viewer from is left out, as the lobby leaves it out.
        may_join = not_blocked(Game.objects.filter(status=Game.Status.OPEN), request.user)
        going = going.filter(Q(game__status=Game.Status.RUNNING) | Q(game__in=may_join))
    going = going.select_related("game").order_by("-game__created_at")[:30]
    visible = [
        s
        for s in going
        if s.user_id == request.user.pk
        or not (s.game.private or watch_refused(s.game, request.user))
    ]
    wins = sum(row["wins"] for row in played_by_kind.values())
    played = sum(row["games"] for row in played_by_kind.values())
    return render(
        request,
        "accounts/profile.html",
        {
            "person": person,
            "ratings": ratings,
            "finished": finished,
            "seats": visible,
            "wins": wins,
            "played": played,
            # Listed with the games (tagged), counted apart: the count says how many.
            "tutorials_finished": Seat.objects.filter(
                user=person, game__status=Game.Status.OVER, game__guided=True
            ).count(),
            **eligibility(),
        },
    )


def eligibility() -> dict[str, int]:
    """Who a leaderboard lists, in numbers for its pages."""
    return {"min_games": MIN_RANKED_GAMES, "recent_days": RANKED_RECENT_DAYS}


@require_GET
def leaderboard_index(request: HttpRequest) -> HttpResponse:
    """The top of every game's leaderboard."""
    bots = leaderboards.wants_bots(request.GET.get("bots"))
    top = leaderboards.TOP_ON_INDEX
    boards = []
    for spec in catalog.available():
        rows = leaderboards.board(spec.slug, bots=bots)
        boards.append({"spec": spec, "rows": leaderboards.ranks(rows, list(rows[:top]))})
    return render(
        request, "leaderboards/index.html", {"boards": boards, "bots": bots, **eligibility()}
    )


@require_GET
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """One game's leaderboard, paginated: rank, player, rating, games, wins, win %."""
    if slug not in {s.slug for s in catalog.available()}:
        raise Http404(NO_SUCH_GAME)
    bots = leaderboards.wants_bots(request.GET.get("bots"))
    rows = leaderboards.board(slug, bots=bots)
    page = Paginator(rows, leaderboards.PAGE_SIZE).get_page(request.GET.get("page"))
    template = "leaderboards/_page.html" if request.htmx else "leaderboards/board.html"  # type: ignore[attr-defined]
    return render(
        request,
        template,
        {
            "spec": catalog.get(slug),
            "page": page,
            "ranked": leaderboards.ranks(rows, list(page.object_list), page.start_index() - 1),
            "bots": bots,
            **eligibility(),
        },
    )


# --- the person's own account: their data, and deleting it ---------------------------------


@login_required
@require_GET
def my_data(request: AuthedRequest) -> HttpResponse:
    """'Download my data': profile, ratings, every finished game's export, other tables."""
    response = JsonResponse(personal.personal_data(request.user), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = 'attachment; filename="bakehouse-my-data.json"'
    return response


DELETE_TRIES_AN_HOUR = 5


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: AuthedRequest) -> HttpResponse:
    """'Delete my account', confirmed with the password; then logged out, back to the lobby. The
    password may be tried DELETE_TRIES_AN_HOUR times an hour (a left-open session is no way in)."""
    form = DeleteAccountForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            if not under_limit(f"delete-account:user:{request.user.pk}", DELETE_TRIES_AN_HOUR):
                raise services.ServiceError(gettext("Too many tries: wait an hour and try again."))
            services.delete_account(request.user, form.cleaned_data["password"])
        except services.ServiceError as refused:
            form.add_error("password", str(refused))
        else:
            logout(request)
            messages.success(
                request, gettext("Your account is deleted. Thank you for baking with us.")
            )
            return redirect("lobby")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/delete_account.html", {"form": form}, status=status)
