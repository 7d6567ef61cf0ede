"""Lobby and table pages; thin views that find the seat and call the services."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from games import catalog, services
from games.access import (
    AuthedRequest,
    HtmxHttpRequest,
    get_game_or_404,
    joinable,
    listed,
    watchable,
)
from games.boards import (
    Sent,
    board_context,
    board_message,
    epoch_ms,
    region_names,
    region_prints,
    render_board,
    render_diff,
)
from games.boards.chat import chat_context, render_chat_log, render_chat_panel
from games.boards.shared import read
from games.engines import IllegalAction
from games.models import Game, Seat
from games.services import tutorial
from games.services.moves import close_posted, parse_number, play_posted
from games.services.yours import your_tables
from games.web.forms import NewGameForm
from games.web.rules import summary_templates


def board_response(
    request: HttpRequest,
    game: Game,
    status: int = 200,
    error: str = "",
    shown: Sent | None = None,
) -> HttpResponse:
    """The board partial for this user, with an optional message.

    Given what the page showed (`shown`), only the regions that moved are sent: the page swaps
    each piece in by its id, and the new version comes with them.
    """
    base = game.version
    game.refresh_from_db()
    if shown is not None and set(shown) == set(region_names(game)):
        html, _ = render_diff(game, request.user, shown, base)
    else:
        html = render_board(game, request.user, request)
    if error:
        html = board_message(error) + html
    return HttpResponse(html, status=status)


def shown_on_page(request: HttpRequest, game: Game) -> Sent | None:
    """What the page that posted shows of each region, if it shows the table's current version."""
    if game.snapshot is None or request.POST.get("version") != str(game.version):
        return None
    ctx = board_context(game, request.user)
    return {name: (mark, None) for name, mark in region_prints(game, ctx).items()}


def refused(request: HtmxHttpRequest, game: Game, status: int, message: str) -> HttpResponse:
    """A refused change: the board with the message (HTMX), or a small page saying why."""
    if request.htmx:
        return board_response(request, game, status, message)
    ctx = {"game": game, "message": message}
    return render(request, "games/refused.html", ctx, status=status)


# Sent by live.js with a tap while the page's socket is open: that socket brings the new board.
LIVE_HEADER = "X-Bakehouse-Live"
# The version a move made, on its empty answer (the page waits for its socket to bring it).
VERSION_HEADER = "X-Bakehouse-Version"


def pushed_to_page(request: HtmxHttpRequest) -> bool:
    """Whether the page that tapped has its socket open (it gets the board from there)."""
    return bool(request.htmx) and request.headers.get(LIVE_HEADER) == "1"


def changes_table(
    fn: Callable[[AuthedRequest, Game], Game | None], *, pushed: bool
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """Run a service on the table; answer with the board (HTMX) or a redirect to the table.

    `pushed`: a page whose socket is open gets an empty 204 on success, with the version the
    change made (the service returns the game), since its socket pushes it the new board anyway
    (rendering it twice cost the server a tenth of a move's work); a refusal always comes with
    the board and the words why.
    """

    @wraps(fn)
    def view(request: AuthedRequest, game_id: int) -> HttpResponse:
        game = get_game_or_404(request, game_id)
        quiet = pushed and pushed_to_page(request)
        shown = shown_on_page(request, game) if request.htmx and not quiet else None
        try:
            changed = fn(request, game)
        except services.ServiceError as exc:
            return refused(request, game, exc.status, str(exc))
        except IllegalAction as exc:
            return refused(request, game, 400, str(exc))
        if quiet and changed is not None:
            return HttpResponse(status=204, headers={VERSION_HEADER: str(changed.version)})
        if request.htmx:
            return board_response(request, game, shown=shown)
        return redirect(game)

    return view


def table_change(
    fn: Callable[[AuthedRequest, Game], None],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """A change to the table answered with the board (or a redirect to the table)."""
    return changes_table(fn, pushed=False)


def table_move(
    fn: Callable[[AuthedRequest, Game], Game | None],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """A move, or a change its socket pushes like one (its service returns the game it changed,
    None if nothing changed): like a table change, but a live page gets its board from its
    socket."""
    return changes_table(fn, pushed=True)


def seat_move(
    fn: Callable[[AuthedRequest, Game | int], Game | None],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """A move only a seated person can make (a pick, closing results): a table move, but from
    a live page the service finds the table by its id in its own locked read, which also finds
    the seat, so a made move reads the table once, as a move on the socket does. Only a refusal
    reads it again, through the access check, so a stranger learns nothing of a private table
    (404) and a seated person gets the board with the words why."""
    as_table_move = table_move(fn)

    @wraps(fn)
    def view(request: AuthedRequest, game_id: int) -> HttpResponse:
        if not pushed_to_page(request):
            return as_table_move(request, game_id)
        try:
            changed = fn(request, game_id)
        except Game.DoesNotExist as exc:
            raise Http404("No such table.") from exc
        except services.ServiceError as exc:
            return refused(request, get_game_or_404(request, game_id), exc.status, str(exc))
        except IllegalAction as exc:
            return refused(request, get_game_or_404(request, game_id), 400, str(exc))
        if changed is None:
            return board_response(request, get_game_or_404(request, game_id))
        return HttpResponse(status=204, headers={VERSION_HEADER: str(changed.version)})

    return view


RECENT = 10


def recently_finished(user: Any) -> QuerySet[Game]:
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


def tables_to_join(user: Any) -> QuerySet[Game]:
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
            "tutorials": tutorial.offers(request.user),
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
    """A game against the kind's quick bots, started at once (the first game unless posted):
    practice (unrated, with hints) when the form says so, else rated."""
    kind = request.POST.get("kind", catalog.available()[0].slug)
    practice = request.POST.get("practice") == "yes"
    try:
        game = services.quick_game(request.user, kind, rated=not practice)
    except services.ServiceError as exc:
        return render(request, "games/refused.html", {"message": str(exc)}, status=exc.status)
    return redirect(game)


@require_GET
def table(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The table: the waiting room before the start, the board after."""
    game = get_game_or_404(request, game_id)
    seats_and_state = read(game)  # one read of the seats for the board and the chat
    board = render_board(game, request.user, request, seats_and_state)
    if request.htmx:
        return HttpResponse(board)
    step = tutorial.step(game, request.user)
    ctx = {
        "game": game,
        "board": board,
        "tutorial": step,
        "hints": step is None and services.offers_hints(game, request.user, seats_and_state.seats),
        "hints_on": services.hints_on(game, seats_and_state.seats),
        "chat": chat_context(game, request.user, seats_and_state.seats),
        "server_now": epoch_ms(timezone.now()),
        "rules_summary": summary_templates(game.spec.slug),
        "seated": any(s.user_id == request.user.pk for s in seats_and_state.seats),
        "badge_poll": 0,  # the table's socket pushes the menu's badge (notifications/badge.py)
    }
    return render(request, "games/table.html", ctx)


@require_GET
def board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board partial if the table moved past the given version (the polling fallback)."""
    game = get_game_or_404(request, game_id)
    try:
        since = int(request.GET.get("version", "-1"))
    except ValueError:
        since = -1
    if since == game.version:
        return HttpResponse(status=204)
    return HttpResponse(render_board(game, request.user, request))


@login_required
@require_POST
@table_move
def join(request: AuthedRequest, game: Game) -> Game:
    """Take a free seat."""
    invite = request.POST.get("invite") or request.GET.get("invite")
    return services.join(game, request.user, invite).game


@login_required
@require_POST
@table_move
def leave(request: AuthedRequest, game: Game) -> Game:
    """Give up your seat before the start."""
    return services.leave(game, request.user)


@login_required
@require_POST
@table_move
def add_bot(request: AuthedRequest, game: Game) -> Game:
    """The host seats a bot."""
    return services.add_bot(game, request.user, request.POST.get("level", "")).game


@login_required
@require_POST
@table_move
def remove_bot(request: AuthedRequest, game: Game) -> Game:
    """The host sends a bot away."""
    seat_id = parse_number(request.POST.get("seat"), "seat")
    if seat_id is None:
        raise services.ServiceError("Which bot?")
    return services.remove_bot(game, request.user, seat_id)


@login_required
@require_POST
@table_change
def cancel(request: AuthedRequest, game: Game) -> None:
    """The host closes the table before it starts."""
    services.cancel(game, request.user)


@login_required
@require_POST
@table_move
def start(request: AuthedRequest, game: Game) -> Game:
    """The host starts the game."""
    return services.start(game, request.user)


@login_required
@require_POST
@table_change
def resign(request: AuthedRequest, game: Game) -> None:
    """Give up a running game; the form's confirm field is the confirm step."""
    if request.POST.get("confirm") != "yes":
        # A bare post (a stray click, a replayed request) must not end someone's game.
        raise services.ServiceError("Confirm that you want to resign.")
    services.resign(game, request.user)


@login_required
@require_POST
@table_change
def rematch(request: AuthedRequest, game: Game) -> None:
    """Play again: offer a rematch at a finished game, or say yes to the one offered."""
    user = request.user
    if game.status == Game.Status.OPEN and game.rematch_of_id is not None:
        services.accept_rematch(game, user)
    else:
        services.rematch(game, user)


@login_required
@require_POST
@table_change
def decline_rematch(request: AuthedRequest, game: Game) -> None:
    """Say no to a rematch, from its own table or from the finished game's."""
    if game.status == Game.Status.OPEN and game.rematch_of_id is not None:
        offered: Game | None = game
    else:
        offered = services.current_rematch(game) if game.status == Game.Status.OVER else None
    if offered is None:
        raise services.ServiceError("No rematch is on offer at this table.")
    services.decline_rematch(offered, request.user)


def chat_change(fn: Callable[..., Any]) -> Callable[[HtmxHttpRequest, int], HttpResponse]:
    """Run a chat service; answer with this viewer's chat lines, or the refusal in words."""

    @wraps(fn)
    def view(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
        game = get_game_or_404(request, game_id)
        try:
            fn(request, game)
        except services.ServiceError as exc:
            if not request.htmx:
                ctx = {"game": game, "message": str(exc)}
                return render(request, "games/refused.html", ctx, status=exc.status)
            # 422, not 400: base.html's htmx config swaps a 400 in as an answer (boards), while a
            # refused line is an error the chat's script tells in the chat's own message line.
            status = 422 if exc.status == 400 else exc.status
            return HttpResponse(chat_refusal(str(exc)), status=status)
        if request.htmx:
            return HttpResponse(render_chat_log(game, request.user))
        return redirect(game)

    return view


def chat_refusal(text: str) -> str:
    """The chat's message line, as an error."""
    return format_html('<p id="chat-message" class="message error" role="alert">{}</p>', text)


def person_posted(request: HttpRequest) -> User | None:
    """The person a mute names by id, if there is one."""
    number = parse_number(request.POST.get("user"), "person")
    return User.objects.filter(pk=number, is_bot=False).first() if number is not None else None


@login_required
@require_POST
@chat_change
def chat(request: AuthedRequest, game: Game) -> None:
    """Say a line in the table chat."""
    services.chat.say(game, request.user, request.POST.get("text", ""))


@login_required
@require_POST
@chat_change
def chat_mute(request: AuthedRequest, game: Game) -> None:
    """Stop seeing one person's chat lines (at every table)."""
    services.chat.mute(request.user, person_posted(request), game.pk)


@login_required
@require_POST
@chat_change
def chat_unmute(request: AuthedRequest, game: Game) -> None:
    """See one person's chat lines again."""
    services.chat.unmute(request.user, person_posted(request), game.pk)


@require_GET
def chat_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """This viewer's chat lines (the page fetches them while its socket is down); with
    ?panel=1 the whole panel (after the viewer sat down or left)."""
    game = get_game_or_404(request, game_id)
    if request.GET.get("panel"):
        return HttpResponse(render_chat_panel(game, request.user, request))
    html = render_chat_log(game, request.user)
    return HttpResponse(html) if html else HttpResponse(status=204)


@login_required
@require_POST
@table_change
def take_back(request: AuthedRequest, game: Game) -> None:
    """Come back to a game you left: the bot gives your seat back."""
    services.take_seat_back(game, request.user)


@login_required
@require_POST
@seat_move
def play(request: AuthedRequest, game: Game | int) -> Game:
    """Make a move; a stale page gets 409, an illegal move 400, both with the board."""
    return play_posted(game, request.user, request.POST)


@login_required
@require_POST
@seat_move
def close_results(request: AuthedRequest, game: Game | int) -> Game | None:
    """Back to the ovens: close the results you have read. A live page gets them closed from its
    socket, as every tab of yours does; results that were closed already come back with the
    board (a push that never came is healed by the next tap)."""
    return close_posted(game, request.user, request.POST)


HINT_LINES = {"board": "board-hint", "sheet": "sheet-hint"}


def hint_html(text: str, *, version: int = 0, refused: bool = False, line: str = "board") -> str:
    """The hint line beside the board (outside the live board, so pushes never redraw it), or in
    the sheet that covers it (a Cakehalla put-back); the page clears it once its board is past
    `version`."""
    at = HINT_LINES.get(line, HINT_LINES["board"])
    if refused:
        return format_html('<p id="{}" class="message error" role="alert">{}</p>', at, text)
    shown = '<p id="{}" class="board-hint" role="status" data-version="{}">{}</p>'
    return format_html(shown, at, version, text)


@login_required
@require_POST
def suggest(request: AuthedRequest, game_id: int) -> HttpResponse:
    """A practice table's hint: the strongest bot's move from your own view, and why. It changes
    nothing; a rated table, a watcher, or a seat with no move to make is refused in words."""
    game = get_game_or_404(request, game_id)
    line = request.POST.get("line", "board")  # the sheet's own button answers into the sheet
    try:
        hint = services.suggest(game, request.user)
    except services.ServiceError as exc:
        return HttpResponse(hint_html(str(exc), refused=True, line=line), status=exc.status)
    said = f"Suggested: {hint.words} Why: {hint.why}"
    return HttpResponse(hint_html(said, version=hint.version, line=line))


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database and the channel layer answer."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        layer = get_channel_layer()
        if layer is None:
            raise RuntimeError("no channel layer")
        async_to_sync(layer.group_send)("healthz", {"type": "health.check"})
    except Exception as exc:
        return JsonResponse({"ok": False, "error": type(exc).__name__}, status=503)
    return JsonResponse({"ok": True})
