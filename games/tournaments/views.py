"""The tournament pages: the list with its create form, a tournament's page (rules, countdown,
standings, tables, chat, podium) and its buttons. Thin views: the services change the rows,
pages.py reads what a page shows with a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import wraps
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q, QuerySet
from django.forms import BoundField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games import catalog
from games.access import AuthedRequest, posted
from games.boards import epoch_ms
from games.tournaments import pages, rules, services, shared
from games.tournaments.access import invite_known, invited_to, tournament_or_404
from games.tournaments.chat_panel import chat_context
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Entrant, Tournament
from games.tournaments.viewer import you_with_buttons

LISTED = 30
FINISHED_LISTED = 20
# The create form's parts as the list page shows them, in the form's own order: each part's
# legend and the field it begins at.
FORM_PARTS = {
    "name": gettext_lazy("The event"),
    "place_points": gettext_lazy("Points"),
    "rating_min": gettext_lazy("Who may enter"),
}


# --- the list and the create form ---------------------------------------------------------


def with_counts(rows: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Tournaments with how many are in (one query for the list)."""
    playing = Count("entrants", filter=Q(entrants__withdrawn=False))
    return rows.select_related("creator").annotate(playing=playing)


def podiums(finished: list[Tournament]) -> dict[int, list[tuple[int, str]]]:
    """The first three of each finished tournament listed (one query)."""
    rows = Entrant.objects.filter(tournament__in=finished, place__lte=3).order_by("place")
    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for tournament_id, place, username in rows.values_list(
        "tournament_id", "place", "user__username"
    ):
        if place is not None:
            found[tournament_id].append((place, username))
    return found


def list_context(request: HttpRequest, form: TournamentForm, error: str = "") -> dict[str, object]:
    """What the list page shows this viewer."""
    public = Tournament.objects.filter(private=False)
    scheduled = public.filter(status=Tournament.Status.SCHEDULED).order_by("starts_at", "pk")
    finished = list(
        with_counts(public.filter(status=Tournament.Status.FINISHED)).order_by(
            "-finished_at", "-pk"
        )[:FINISHED_LISTED]
    )
    won = podiums(finished)
    for tournament in finished:
        tournament.podium = won.get(tournament.pk, [])  # type: ignore[attr-defined]
    user = request.user
    yours: list[Tournament] = []
    if user.is_authenticated:
        mine = Tournament.objects.filter(Q(creator=user) | Q(entrants__user=user)).filter(
            status__in=(Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)
        )
        yours = list(with_counts(mine.distinct()).order_by("starts_at", "pk")[:LISTED])
    return {
        "site_events": list(with_counts(scheduled.exclude(scheduled_by=""))[:LISTED]),
        "people_events": list(with_counts(scheduled.filter(scheduled_by=""))[:LISTED]),
        "running": list(
            with_counts(public.filter(status=Tournament.Status.RUNNING)).order_by(
                "starts_at", "pk"
            )[:LISTED]
        ),
        "finished": finished,
        "yours": yours,
        "form": form,
        "parts": form_parts(form),
        "error": error,
        "server_now": epoch_ms(timezone.now()),
    }


def form_parts(form: TournamentForm) -> list[tuple[str, list[BoundField]]]:
    """The form's fields in its own order, in the parts FORM_PARTS begins (the hidden zone
    follows the exact start it is read in)."""
    parts: list[tuple[str, list[BoundField]]] = []
    for field in form:
        if field.name in FORM_PARTS:
            parts.append((str(FORM_PARTS[field.name]), []))
        parts[-1][1].append(field)
    return parts


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Upcoming (the site's and people's), running and finished tournaments; the create form."""
    form = TournamentForm(initial={"kind": catalog.available()[0].slug})
    return render(request, "tournaments/list.html", list_context(request, form))


@login_required
@require_POST
def create(request: AuthedRequest) -> HttpResponse:
    """Make a tournament; any refusal is said above the form, which keeps what was typed."""
    form = TournamentForm(request.POST)
    if not form.is_valid():
        ctx = list_context(request, form, form.refusal())
        return render(request, "tournaments/list.html", ctx, status=400)
    try:
        tournament = services.create(request.user, form.rules(services.now()))
    except services.ServiceError as refused:
        ctx = list_context(request, form, str(refused))
        return render(request, "tournaments/list.html", ctx, status=refused.status)
    said = gettext("%(name)s is made: share its page so people join.")
    messages.success(request, said % {"name": tournament.name})
    return redirect(tournament.invite_url if tournament.private else tournament)


# --- a tournament's page ------------------------------------------------------------------


def page_query(board: pages.Board, page: int) -> str:
    """The query string of the standings page and round shown (the socket is opened with it)."""
    parts = []
    if board.round is not None and board.round != board.tournament.current_round:
        parts.append(f"round={board.round}")
    if page > 1:
        parts.append(f"page={page}")
    return "?" + "&".join(parts) if parts else ""


def detail_context(
    request: HttpRequest, tournament: Tournament, error: str = ""
) -> dict[str, object]:
    """Everything the tournament's page shows this viewer."""
    asked = shown_round_key(tournament, request.GET.get("round"))
    # The board and its live part as this process's sockets share them at this version (one
    # read and render for every page of it): the 1,000-entrant page read and drew its own.
    board = shared.board_at(tournament.pk, asked, tournament.version) or pages.read_board(
        tournament, asked
    )
    standings = board.page(request.GET.get("page"))
    user = request.user
    invited = invited_to(request.session)
    you = you_with_buttons(board, user, invite_known(tournament, invited), services.now())
    writer = user.is_authenticated and (
        tournament.creator_id == user.pk or you.standing is not None
    )
    return {
        "t": tournament,
        "spec": catalog.get(tournament.kind),
        "board": board,
        "standings": standings,
        "you": you,
        "rules": rules.rules(tournament),
        "chat": chat_context(tournament, user, writer),
        "error": error,
        "query": page_query(board, standings.number),
        "share": tournament.private and (writer or tournament.pk in invited),
        "server_now": epoch_ms(timezone.now()),
        "badge_poll": 0,  # the page's socket pushes the menu's badge (live.py)
        # The standings, tables and podium as drawn once a version for every viewer; the page
        # itself reads none of their lines (their 50 lines built again cost each answer ~1 ms).
        "live": shared.live_html(board, asked, request.GET.get("page")),
    }


def shown_round_key(tournament: Tournament, asked: object) -> int | None:
    """The Swiss round a page asks for, as the shared boards key it (None: the one under way,
    as the page's socket asks)."""
    shown = pages.shown_round(tournament, asked)
    return None if shown == tournament.current_round else shown


@require_GET
def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament's page; ?part=live (the standings and tables, your line and the chat,
    as the socket pushes them) and ?part=you (your panel) for the page's own script."""
    tournament = tournament_or_404(request, tournament_id)
    ctx = detail_context(request, tournament)
    part = request.GET.get("part")
    if part == "live":
        html = str(ctx["live"]) + render_to_string("tournaments/_you_line.html", ctx)
        chat = cast(dict[str, object], ctx["chat"])
        html += render_to_string("tournaments/_chat_log.html", chat)
        return HttpResponse(html)
    if part == "you":
        return render(request, "tournaments/_you.html", ctx)
    return render(request, "tournaments/detail.html", ctx)


def refused(request: HttpRequest, tournament: Tournament, words: str, status: int) -> HttpResponse:
    """A button's refusal: the page again with the words why, nothing changed."""
    ctx = detail_context(request, tournament, words)
    return render(request, "tournaments/detail.html", ctx, status=status)


def button(
    act: Callable[[AuthedRequest, Tournament], str],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """A tournament button (a signed-in person's POST: access.posted): the service's sentence
    after a redirect to the page, or its refusal in words with the page as it stands (nothing
    changed)."""

    @wraps(act)
    def view(request: AuthedRequest, tournament_id: int) -> HttpResponse:
        tournament = tournament_or_404(request, tournament_id)
        try:
            said = act(request, tournament)
        except services.ServiceError as refusal:
            return refused(request, tournament, str(refusal), refusal.status)
        messages.success(request, said)
        return redirect(tournament)

    return posted(view)


@button
def join(request: AuthedRequest, tournament: Tournament) -> str:
    """Enter the tournament (a private one with its link)."""
    invite = request.POST.get("invite") or invite_known(tournament, invited_to(request.session))
    return services.join(tournament, request.user, invite)


@button
def withdraw(request: AuthedRequest, tournament: Tournament) -> str:
    """Leave the tournament; the form's confirm field is the confirm step."""
    if request.POST.get("confirm") != "yes":
        # A bare post (a stray click, a replayed request) must not take someone out.
        raise services.ServiceError(gettext("Confirm that you want to leave the tournament."))
    return services.withdraw(tournament, request.user)


@button
def check_in(request: AuthedRequest, tournament: Tournament) -> str:
    """Swiss: "I'm here" for the next round, whatever page is open then."""
    return services.check_in(tournament, request.user)


@button
def pause(request: AuthedRequest, tournament: Tournament) -> str:
    """Arena: get no new table until you come back."""
    return services.pause(tournament, request.user)


@button
def resume(request: AuthedRequest, tournament: Tournament) -> str:
    """Arena: be seated again."""
    return services.resume(tournament, request.user)


# --- the chat -----------------------------------------------------------------------------


def chat_refusal(text: str) -> str:
    """The chat's message line, as an error."""
    return format_html(
        '<p id="tournament-chat-message" class="message error" role="alert">{}</p>', text
    )


@login_required
@require_POST
def chat(request: AuthedRequest, tournament_id: int) -> HttpResponse:
    """Say a line: the lines as this viewer sees them, or the refusal in words."""
    tournament = tournament_or_404(request, tournament_id)
    try:
        services.chat.say(tournament, request.user, request.POST.get("text", ""))
    except services.ServiceError as refusal:
        if not request.htmx:
            return refused(request, tournament, str(refusal), refusal.status)
        # 422, not 400: base.html's htmx config swaps a 400 in (see games.web.chat.chat_change).
        status = 422 if refusal.status == 400 else refusal.status
        return HttpResponse(chat_refusal(str(refusal)), status=status)
    if not request.htmx:
        return redirect(tournament)
    ctx = chat_context(tournament, request.user, True)
    return render(request, "tournaments/_chat_log.html", ctx)


@require_GET
def chat_log(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The lines as this viewer sees them (the page asks while its socket is down)."""
    tournament = tournament_or_404(request, tournament_id)
    return render(
        request,
        "tournaments/_chat_log.html",
        chat_context(tournament, request.user, False),
    )
