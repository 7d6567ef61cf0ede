"""A table's chat: saying a line, muting and unmuting a person, and the chat's lines as a page
fetches them while its socket is down."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import services
from games.access import AuthedRequest, get_game_or_404
from games.boards.chat import render_chat_log, render_chat_panel
from games.models import Game
from games.services.moves import parse_number


def chat_change(
    fn: Callable[[AuthedRequest, Game], object],
) -> Callable[[AuthedRequest, int], HttpResponse]:
    """Run a chat service; answer with this viewer's chat lines, or the refusal in words."""

    @wraps(fn)
    def view(request: AuthedRequest, game_id: int) -> HttpResponse:
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
