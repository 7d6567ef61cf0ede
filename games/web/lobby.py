"""The lobby (the tables you could sit at, your games, the last finished ones) and the ways to
a new table: one set up by hand, or a quick game against bots started at once."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from games import catalog, services
from games.access import AuthedRequest, joinable, listed, watchable
from games.models import Game, Seat
from games.services.yours import your_tables
from games.web.forms import NewGameForm

RECENT = 10


def recently_finished(user: User | AnonymousUser) -> QuerySet[Game]:
    """The last public finished games this user may watch, with their (first) winner's name."""
    first_winner = (
        Seat.objects.filter(game=OuterRef("pk"), winner=True)
        .order_by("position")
        .values("user__username")[:1]
    )
    return (
        watchable(listed(Game.objects.filter(status=Game.Status.OVER)), user)
        .only("pk", "kind", "finished_at")
        .annotate(
            winner_name=Subquery(first_winner),
            winners=Count("seats", filter=Q(seats__winner=True)),
        )
        .order_by("-finished_at", "-pk")[:RECENT]
    )


# The lobby lists this many tables to join, newest first, at most LOBBY_TABLES_PER_HOST of one
# host: however many tables one account opens, another person's new table shows beside them.
LOBBY_TABLES = 30
LOBBY_TABLES_PER_HOST = 2


def tables_to_join(user: User | AnonymousUser) -> QuerySet[Game]:
    """The public tables this viewer could sit at now (access.joinable), newest first, the
    newest LOBBY_TABLES_PER_HOST of each host."""
    newest_of_host = Window(
        RowNumber(), partition_by=[F("host_id")], order_by=[F("created_at").desc(), F("pk").desc()]
    )
    return (
        joinable(listed(Game.objects.all()), user)
        .annotate(host_rank=newest_of_host)
        .filter(host_rank__lte=LOBBY_TABLES_PER_HOST)
        .select_related("host")
        .order_by("-created_at", "-pk")[:LOBBY_TABLES]
    )


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The public tables you could sit at (see tables_to_join), your games, and a game against
    bots at once, practice or rated."""
    open_tables = tables_to_join(request.user)
    tables = your_tables(request.user) if request.user.is_authenticated else []
    waiting = {t.game.pk for t in tables if t.waits_on_you}
    return render(
        request,
        "games/lobby.html",
        {
            "open_tables": open_tables,
            "per_host": LOBBY_TABLES_PER_HOST,
            "your_tables": tables,
            "waiting": waiting,
            "recent": recently_finished(request.user),
            "games": catalog.available(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: AuthedRequest) -> HttpResponse:
    """Choose the game, the seats, the options, private or public."""
    form = NewGameForm(request.POST if request.method == "POST" else None)
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                request.user,
                form.cleaned_data["kind"],
                form.cleaned_data["capacity"],
                form.options(),
                private=form.cleaned_data["private"],
                watchers=form.cleaned_data["watchers"] or Game.Watchers.ANYONE,
                spectator_chat=form.cleaned_data["spectator_chat"],
                pace=form.cleaned_data["pace"] or Game.Pace.RELAXED,
                rated=not form.cleaned_data["practice"],
            )
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(game)
    ctx = {"form": form, "games": catalog.available()}
    return render(request, "games/new.html", ctx, status=status)


@login_required
@require_POST
def quick_night(request: AuthedRequest) -> HttpResponse:
    """A game against the kind's quick bots (of the level chosen, if one is), started at once
    (the first game unless posted): practice (unrated, with hints) when the form says so, else
    rated."""
    kind = request.POST.get("kind", catalog.available()[0].slug)
    practice = request.POST.get("practice") == "yes"
    level = request.POST.get("bots", "")[:40]
    try:
        game = services.quick_game(request.user, kind, rated=not practice, level=level)
    except services.ServiceError as exc:
        return render(request, "games/refused.html", {"message": str(exc)}, status=exc.status)
    return redirect(game)
