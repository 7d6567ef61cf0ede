"""The table chat as one viewer sees it: the last lines, without hidden, muted or blocked ones."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.models import Block, User, signed_in
from games.models import ChatMessage, Game, Mute, Seat
from games.services.chat import closed_because, may_read, may_write, seated_person

SHOWN = 50  # the newest lines a screen shows


def muted_by(user: User | AnonymousUser) -> list[User]:
    """The people this user has muted."""
    if not signed_in(user):
        return []
    ids = Mute.objects.filter(user=user).values("muted_id")
    return list(User.objects.filter(pk__in=ids).order_by("username"))


def shown_lines(game: Game, user: User | AnonymousUser, muted: list[User]) -> list[ChatMessage]:
    """The newest SHOWN lines this viewer reads, oldest first."""
    lines = ChatMessage.objects.filter(game=game, hidden=False).exclude(
        author__in=[m.pk for m in muted]
    )
    if signed_in(user):
        lines = lines.exclude(author__in=Block.objects.filter(blocker=user).values("blocked_id"))
    return list(reversed(lines.select_related("author").order_by("-created_at", "-pk")[:SHOWN]))


def chat_context(
    game: Game,
    user: User | AnonymousUser,
    seats: list[Seat] | None = None,
    *,
    chatted: bool = True,
    muting: bool = True,
) -> dict[str, object]:
    """What the chat panel shows this viewer (`readable` False: no chat for them at all).

    `seats`: the table's seats with their users, when already read. `chatted` False: the table's
    chat never had a line, so none is read (a page passes Game.chatted of the row it just read:
    a Swiss round's fresh tables); a row kept across versions, as the sockets' shared read, may
    be older than the first line (a line moves no version), so the lines are read by default.
    `muting` False: the viewer never muted anyone, so whom they muted is not read (a page passes
    User.muted_someone of the row its request just read; a socket's person, read at its connect,
    may be older than their first mute, so it is read by default).
    """
    if seats is None:
        seats = list(game.seats.select_related("user"))
    seated = seated_person(seats, user)
    if not may_read(game, user, seats):
        return {"game": game, "readable": False, "writable": False, "seated": seated}
    muted = muted_by(user) if muting else []
    closed = closed_because(game)
    return {
        "game": game,
        "readable": True,
        "seated": seated,
        "closed": closed,
        "writable": may_write(game, user, seats) and not closed,
        "lines": shown_lines(game, user, muted) if chatted else [],
        "muted": muted,
        "viewer_id": getattr(user, "pk", None),
        "max_length": ChatMessage.MAX_LENGTH,
    }


def render_chat_log(game: Game, user: User | AnonymousUser, seats: list[Seat] | None = None) -> str:
    """The #chat-log element for this viewer, or "" when they may not read the chat."""
    ctx = chat_context(game, user, seats)
    if not ctx["readable"]:
        return ""
    return render_to_string("games/_chat_log.html", ctx)


def render_chat_panel(game: Game, user: User | AnonymousUser, request: HttpRequest | None) -> str:
    """The whole chat panel (#chat) for this viewer, hidden when they may not read it."""
    ctx = {"game": game, "chat": chat_context(game, user), "user": user}
    return render_to_string("games/_chat.html", ctx, request)
