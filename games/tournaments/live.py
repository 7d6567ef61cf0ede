"""A tournament page's socket (/ws/tournaments/<id>/): the standings and tables as they move,
the viewer's own line, the chat, and the move to their table once they are seated.

It joins the tournament's group, where the services announce each committed change as
`{"type": "tournament.changed", "version": N}` (services.base.bump), and, signed in, the
person's own group (their table ready, their inbox badge, their session ending). On a change it
pushes the live part of the page, read and rendered once per process for every viewer of the
same round and standings page (shared.py says why a push beats a fetch), at most every
PUSH_GAP seconds, with the viewer's own line when it changed. While open it tells the
services every HERE_SECONDS that an entrant is here (services.here), so at a live pace they are
not skipped as away. A private tournament's socket is refused (4404) to whoever may not see it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from accounts.models import User, signed_in
from games.live import caps
from games.live.protocol import NOT_FOUND
from games.live.push_threads import off_loop
from games.live.sessions import SESSION_ENDED, SocketSession
from games.live.socket import Socket
from games.tournaments import chat_panel, pages, services, shared
from games.tournaments.access import invited_to, may_see
from games.tournaments.models import Tournament
from games.tournaments.viewer import you_of

PUSH_GAP = 0.5
"""Seconds at least between two pushes of the live part to one page: a busy arena's changes
within them are sent as one, the newest."""

CHAT_HIDDEN_KEPT = 60.0
"""Seconds a socket keeps whom its viewer blocks or muted before reading it again."""


def here_seconds() -> float:
    """How often an open page says its entrant is here: well within AWAY_SECONDS."""
    return float(min(30.0, settings.AWAY_SECONDS / 2))


@dataclass(frozen=True)
class View:
    """What the page shows: the Swiss round asked for (None: the one under way) and the
    standings page."""

    round: int | None = None
    page: int = 1


def view_of(query: bytes) -> View:
    """The page's round and standings page from the socket's query string (garbage: the
    defaults)."""
    asked = parse_qs(query.decode("latin-1"))

    def number(name: str) -> int | None:
        raw = (asked.get(name) or [""])[0]
        return int(raw) if raw.isdigit() and len(raw) < 7 else None

    return View(number("round"), number("page") or 1)


@dataclass(frozen=True)
class Push:
    """What a socket sends: a close code, or HTML and the version it shows."""

    close: int | None = None
    html: str = ""
    version: int = -1
    you: str = ""
    hidden: frozenset[int] = frozenset()


def you_html(board: pages.Board, user: User | AnonymousUser) -> str:
    """The viewer's own line (their standing, their table ready)."""
    ctx = {"t": board.tournament, "you": you_of(board, user)}
    return render_to_string("tournaments/_you_line.html", ctx)


def first_push(
    tournament_id: int, user: User | AnonymousUser, invited: list[int], view: View
) -> Push:
    """The page's first push, or why it is refused: the tournament gone, or private and not
    for this viewer."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not may_see(tournament, user, invited):
        return Push(close=NOT_FOUND)
    board = shared.board_at(tournament_id, view.round, None)
    if board is None:
        return Push(close=NOT_FOUND)
    chat = shared.chat_at(tournament_id, None)
    hidden = chat_panel.hidden_authors(user)
    entrant = board.standing_of(user)
    if entrant is not None and not entrant.withdrawn and signed_in(user):
        services.here(tournament_id, user.pk)
    you = you_html(board, user)
    html = shared.live_html(board, view.round, view.page) + you
    html += shared.chat_html(tournament_id, chat, hidden)
    return Push(html=html, version=board.version, you=you, hidden=hidden)


def pushed(
    tournament_id: int,
    user: User | AnonymousUser,
    session: SocketSession | None,
    view: View,
    version: int,
    you_sent: str,
) -> Push:
    """The live part at `version` or later, and the viewer's line if it changed."""
    if session is not None and not session.alive():
        return Push(close=SESSION_ENDED)
    board = shared.board_at(tournament_id, view.round, version)
    if board is None:
        return Push(close=NOT_FOUND)
    you = you_html(board, user) if session is not None else you_sent
    html = shared.live_html(board, view.round, view.page)
    return Push(html=html + (you if you != you_sent else ""), version=board.version, you=you)


def chat_drawn(tournament_id: int, stamp: float | None, hidden: frozenset[int]) -> str:
    """The chat lines read after `stamp`, as a viewer who does not see `hidden` people's."""
    return shared.chat_html(tournament_id, shared.chat_at(tournament_id, stamp), hidden)


def beat(tournament_id: int, session: SocketSession | None, view: View) -> int | None:
    """The page is still open: an entrant is here (services.here); a close code if the
    session ended."""
    if session is None:
        return None
    if not session.alive():
        return SESSION_ENDED
    board = shared.board_at(tournament_id, view.round, -1)
    if board is None:
        return NOT_FOUND
    entrant = board.by_user.get(session.user_id)
    if entrant is not None and not entrant.withdrawn:
        services.here(tournament_id, session.user_id)
    return None


class TournamentConsumer(Socket):
    """Pushes a tournament's standings and tables as they change, to every page that shows it."""

    tournament_id: int
    view: View
    version: int = -1
    wanted: int = -1
    you: str = ""
    first: Push | None = None  # read with the access check, sent once the socket is counted
    last_push: float = 0.0
    hidden: frozenset[int] = frozenset()
    hidden_at: float = 0.0
    due: asyncio.Task[None] | None = None

    def asked(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.view = view_of(self.scope.get("query_string", b""))

    def page_groups(self) -> list[str]:
        """The tournament's group (its committed changes, its chat)."""
        return [services.tournament_group(self.tournament_id)]

    async def check(self) -> int | None:
        """The tournament gone, or private and not for this viewer (NOT_FOUND); else the
        page's first push, read in the same trip."""
        invited = invited_to(self.scope.get("session"))
        user = self.scope["user"]
        self.first = await off_loop(first_push, self.language)(
            self.tournament_id, user, invited, self.view
        )
        return self.first.close

    def place(self) -> str:
        return caps.tournament_place(self.tournament_id)

    async def opened(self) -> None:
        assert self.first is not None
        first, self.first = self.first, None
        shared.socket_opened(self.tournament_id)
        self.version, self.wanted, self.you = first.version, first.version, first.you
        self.hidden, self.hidden_at = first.hidden, time.monotonic()
        self.last_push = time.monotonic()
        await self.send_html(first.html)

    def beat_seconds(self) -> float:
        return here_seconds()

    async def beat(self) -> None:
        """The entrant is here, the session still holds."""
        code = await off_loop(beat)(self.tournament_id, self.session, self.view)
        if code is not None:
            await self.end(code)

    async def depart(self) -> None:
        """What this process keeps of the tournament serves one socket less."""
        shared.socket_closed(self.tournament_id)
        await super().depart()

    async def tournament_changed(self, event: dict[str, object]) -> None:
        """A change was committed: push its live part, at most every PUSH_GAP seconds."""
        version = event.get("version")
        if not isinstance(version, int) or version <= self.wanted:
            return
        self.wanted = version
        if self.due is None:
            wait = self.last_push + PUSH_GAP - time.monotonic()
            self.due = self.soon(self.push_later(wait))

    async def push_later(self, wait: float) -> None:
        """The coalesced push, once its gap has passed."""
        if wait > 0:
            await asyncio.sleep(wait)
        self.due = None
        await self.dispatch({"type": "push.due"})

    async def push_due(self, event: dict[str, object]) -> None:
        """Push the newest version announced, unless it is on the page already."""
        async with self.pushing:
            if self.closed or self.wanted <= self.version:
                return
            user = self.scope["user"]
            push = await off_loop(pushed, self.language)(
                self.tournament_id, user, self.session, self.view, self.wanted, self.you
            )
            self.last_push = time.monotonic()
            if push.close is not None:
                await self.end(push.close)
                return
            self.version, self.you = push.version, push.you
            await self.send_html(push.html)

    async def tournament_chat(self, event: dict[str, object]) -> None:
        """A chat line came, or was hidden: this viewer's lines."""
        stamp = event.get("stamp")
        await self.send_chat(stamp if isinstance(stamp, float) else None)

    async def chat_changed(self, event: dict[str, object]) -> None:
        """The person muted someone (at a table): read whom they do not see again."""
        self.hidden_at = 0.0
        await self.send_chat(None)

    async def send_chat(self, stamp: float | None) -> None:
        """Send the chat lines as this viewer sees them."""
        if self.closed:
            return
        user = self.scope["user"]
        if time.monotonic() - self.hidden_at > CHAT_HIDDEN_KEPT:
            self.hidden = await off_loop(chat_panel.hidden_authors)(user)
            self.hidden_at = time.monotonic()

        drawn = off_loop(chat_drawn, self.language)
        await self.send_html(await drawn(self.tournament_id, stamp, self.hidden))
