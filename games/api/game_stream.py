"""The game stream: one table as the token's person sees it, first whole, then at each new version,
with its chat lines, until the game ends (games/api/streams.py opens it; games/live/streams.py
keeps it).

Each line is the same `Table` the GET table operation answers (tables.table_out: the seat's
engine.view, or a watcher's, never more), from the read the table's sockets and streams in this
process share (boards.shared.table_at: one of them reads a new version, the others take it)
when the table's group says a version was stored; versions stored faster than the line is read
are told as the newest of them. Chat lines
come to a token with chat:read, as the page's chat shows them to its person.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from django.http import HttpRequest, StreamingHttpResponse
from ninja import Router

from accounts.models import User
from games.api.auth import person, token_of
from games.api.errors import Error
from games.api.streams import NDJSON_STREAM, open_stream
from games.api.tables import chat_out, seat_of, table_out, visible
from games.boards.chat import chat_context
from games.boards.shared import TableAt, table_at
from games.groups import group_name, user_group
from games.live import streams
from games.live.stream_watch import Heal
from games.live.streams import Said
from games.models import Game

router = Router(tags=["streams"])

REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 429: Error}
OVER = {Game.Status.OVER, Game.Status.CANCELLED, Game.Status.ABORTED}
GAME_OVER = "The game is over."


class GameFeed:
    """What one table's stream says to one person (streams.Feed)."""

    def __init__(self, me: User, game_id: int, chat: bool) -> None:
        self.me = me
        self.game_id = game_id
        self.chat = chat
        self.version = -1
        self.status = ""
        self.last_line = 0
        self.healed: int | None = None  # the stored version the process's heal last read

    def groups(self) -> list[str]:
        """The table's group; the person's own too for the chat (a mute is told there)."""
        return [group_name(self.game_id), *([user_group(self.me.pk)] if self.chat else [])]

    def first(self) -> list[Said]:
        """The whole table, then the chat as the person may read it."""
        lines = self.table("gameFull")
        if self.chat and self.status not in OVER:
            lines += self.chat_lines()
        return lines

    def heard(self, message: dict[str, object]) -> list[Said]:
        """A new version: the table at it; the chat changed: its lines not said yet."""
        kind = message.get("type")
        if kind == "game.updated":
            version = message.get("version")
            if not isinstance(version, int) or version <= self.version:
                return []
            return self.table("gameState", version)
        if kind == "chat.changed" and self.chat and message.get("game") == self.game_id:
            return self.chat_lines()
        return []

    def beat(self) -> list[Said]:
        """The table at a version its group did not tell, and the chat's lines not said yet
        (its groups were joined again: a line may have been missed). The version is the one the
        process's heal just read for every stream (`behind`); only a beat no heal asked for
        (the groups joined again) reads it here (one indexed read)."""
        stored, self.healed = self.healed, None
        if stored is None:
            stored = Game.objects.filter(pk=self.game_id).values_list("version", flat=True).first()
        lines = self.table("gameState", stored) if stored is None or stored > self.version else []
        if self.chat and self.status not in OVER:
            lines += self.chat_lines()
        return lines

    def heal(self) -> Heal:
        return behind

    def over(self) -> str:
        return GAME_OVER if self.status in OVER else ""

    def table(self, kind: str, version: int | None = None) -> list[Said]:
        """The table as stored, or at `version` or later (the read this process's sockets and
        streams of the table share: boards.shared.table_at), as the GET table operation
        answers it; nothing when it is not newer than the last line."""
        try:
            table = table_at(self.game_id, version)
        except Game.DoesNotExist:
            self.status = Game.Status.CANCELLED
            return []
        game = table.game
        if game.version <= self.version and kind != "gameFull":
            return []
        self.version, self.status = game.version, game.status
        return [line_of(table, self.me, kind)]

    def chat_lines(self) -> list[Said]:
        """The chat's lines this person may read that were not said yet."""
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None or not chat_context(game, self.me)["readable"]:
            return []
        lines = [line for line in chat_out(game, self.me).lines if line.id > self.last_line]
        if lines:
            self.last_line = lines[-1].id
        return [{"type": "chatLine", **line.model_dump(mode="json")} for line in lines]


LINES_KEPT = 1024
"""How many lines (a table at one version as one seat's person or every watcher sees it) this
process keeps for its streams."""
_lines: OrderedDict[tuple[int, int, str, str, int | None], bytes] = OrderedDict()
_lines_lock = threading.Lock()  # the streams' lines are made on several push threads


def line_of(table: TableAt, me: User, kind: str) -> bytes:
    """The NDJSON line of the table as this person sees it (tables.table_out): their seat's, or
    a watcher's, which is the same for everyone not seated. Made once a version in a process,
    for all the streams of that seat's person, or of every watcher, and kept: each stream had
    its own JSON made (and a seated person's view drawn) at each version. A seat's line is kept
    under its person, so no other stream is ever given it."""
    seated = seat_of(table.seats, me) is not None
    game = table.game
    key = (game.pk, game.version, game.status, kind, me.pk if seated else None)
    with _lines_lock:
        kept = _lines.get(key)
    if kept is None:
        kept = streams.encoded({"type": kind, **table_out(table, me).model_dump(mode="json")})
        with _lines_lock:
            _lines[key] = kept
            while len(_lines) > LINES_KEPT:
                _lines.popitem(last=False)
    return kept


def behind(feeds: Sequence[GameFeed]) -> list[bool]:
    """Which of these streams' tables are stored at a version newer than their last line, or
    gone (one read for all their tables: streams.Feed.heal). Each stream behind keeps the
    version read here for its beat, which then reads no version of its own (each stream's
    beat read one: under busy tables a heal finds some streams a move behind every time)."""
    ids = {feed.game_id for feed in feeds}
    stored = dict(Game.objects.filter(pk__in=ids).values_list("pk", "version"))
    due = []
    for feed in feeds:
        version = stored.get(feed.game_id)
        late = version is None or version > feed.version
        if late:
            feed.healed = version  # None: gone, its beat reads it again and ends
        due.append(late)
    return due


@router.get(
    "/games/{game_id}/stream",
    response=REFUSED,
    openapi_extra=NDJSON_STREAM,
    summary="Stream a table",
)
def game_stream(request: HttpRequest, game_id: int) -> StreamingHttpResponse:
    """A table as NDJSON: `gameFull` first (the GET table's answer), then `gameState` at each new
    version, `chatLine` for each chat line (scope chat:read), and `end` once the game is over.
    Your seat's view needs the scope games:play; anyone may watch a public table."""
    me = person(request)
    game = visible(me, game_id)
    if seat_of(list(game.seats.all()), me) is not None:
        person(request, "games:play")
    chat = "chat:read" in token_of(request).scope_list
    return open_stream(request, GameFeed(me, game.pk, chat), game_id=game.pk)
