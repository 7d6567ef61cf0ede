"""The event stream of one account: what a program playing for a person (or a bot account) must
know outside a table, as NDJSON (games/api/streams.py opens it; games/live/streams.py keeps it).

It hears the person's own channel group, as their pages' sockets do: a table dealt with them in
it (events.game_started), a game of theirs finished (events.game_finished), and their
notifications (games/notifications/: the inbox's rows, told by events.inbox_changed), each said
as a line of its own kind. Nothing is told a second way: a line is a notification the inbox also
shows, or a table's change every seat's page also sees.

First, the tables the person plays at that are running now (`gameStart` each), so a client that
comes back after a restart knows where it plays.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Max, Q
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Router

from accounts.models import User
from games.api.auth import person, token_of
from games.api.challenges import challenge_out
from games.api.errors import Error, Refused
from games.api.streams import NDJSON_STREAM, open_stream
from games.challenges.models import Challenge
from games.challenges.services import mine
from games.groups import user_group
from games.live.stream_watch import Heal
from games.live.streams import Line
from games.models import Game, Seat
from games.notifications.models import Notification
from games.pairing import services as pairing
from games.tournaments.services.entry import here_all as tournaments_here_all

router = Router(tags=["streams"])

REFUSED = {400: Error, 401: Error, 403: Error, 429: Error}
SCOPES = ("events:join", "bot:play")
Kind = Notification.Kind
LINE_OF_KIND: dict[str, str] = {
    Kind.TURN: "yourTurn",
    Kind.INVITE: "invitation",
    Kind.REMATCH: "rematch",
    Kind.TOURNAMENT: "tournament",
}
"""The line each kind of notification makes (friend requests are no program's business)."""


def game_line(kind: str, game: Game) -> Line:
    """A line about one table."""
    return {"type": kind, "id": game.pk, "game": game.kind, "status": game.status}


def notice_line(notice: Notification) -> Line:
    """A notification as a line: its words and where it leads, its table if any."""
    line: Line = {"type": LINE_OF_KIND[notice.kind], "text": notice.text, "url": notice.url}
    if notice.game is not None:
        line.update(id=notice.game.pk, game=notice.game.kind, status=notice.game.status)
    return line


CHALLENGE = "challenge:"
"""The key of a challenge's notifications (games/challenges/services.py): challenge:<id>, and
challenge:<id>:answer for its answer."""
ANSWERED: dict[str, str] = {
    Challenge.Status.ACCEPTED: "challengeAccepted",
    Challenge.Status.DECLINED: "challengeDeclined",
}


def challenge_lines(notice: Notification) -> list[Line]:
    """A challenge to the person (`challenge`), or the answer to theirs, with the challenge as
    the API shows it (its id to accept or decline it with)."""
    number = notice.key.removeprefix(CHALLENGE).split(":")[0]
    found = mine(notice.recipient).filter(pk=int(number)).first() if number.isdigit() else None
    if found is None:
        return []
    kind = ANSWERED.get(found.status, "") if notice.key.endswith(":answer") else "challenge"
    if not kind:
        return []
    return [{"type": kind, "challenge": challenge_out(found).model_dump(mode="json")}]


class EventFeed:
    """What one account's event stream says (streams.Feed)."""

    def __init__(self, me: User) -> None:
        self.me = me
        self.last_notice = 0
        self.started: set[int] = set()  # said to have started, not yet to have finished
        self.finished: set[int] = set()

    def groups(self) -> list[str]:
        return [user_group(self.me.pk)]

    def first(self) -> list[Line]:
        """The running tables the person plays at; the notifications from here on are news."""
        newest = Notification.objects.filter(recipient=self.me).order_by("-pk").first()
        self.last_notice = newest.pk if newest is not None else 0
        playing = Seat.objects.filter(user=self.me, resigned=False).values("game_id")
        running = Game.objects.filter(pk__in=playing, status=Game.Status.RUNNING).order_by("pk")
        self.started = {game.pk for game in running}
        return [game_line("gameStart", game) for game in running]

    def heard(self, message: dict[str, object]) -> list[Line]:
        kind = message.get("type")
        if kind == "game.started":
            return self.game_started(message.get("game"))
        if kind == "game.finished":
            return self.game_finished(message.get("game"))
        if kind == "notices.changed":
            return self.news()
        return []

    def beat(self) -> list[Line]:
        """What its group did not tell: deals and ends of the person's tables, and
        notifications (two indexed reads), when `missed` found some or the groups were joined
        again."""
        # A table resigned from is not said dealt; its end is, once said started.
        seats = Seat.objects.filter(user=self.me)
        playing = seats.filter(resigned=False).values("game_id")
        dealt = Q(status=Game.Status.RUNNING, pk__in=playing) & ~Q(pk__in=self.started)
        ended = Q(status=Game.Status.OVER, pk__in=self.started)
        lines: list[Line] = []
        mine = seats.values("game_id")
        for game in Game.objects.filter(dealt | ended, pk__in=mine).order_by("pk"):
            lines += self.game_started(game.pk) + self.game_finished(game.pk)
        newer = Notification.objects.filter(recipient=self.me, pk__gt=self.last_notice)
        return lines + (self.news() if newer.exists() else [])

    def heal(self) -> Heal:
        return missed

    def over(self) -> str:
        return ""

    def game_started(self, game_id: object) -> list[Line]:
        """A table was dealt with the person in it (said once, however often it is heard)."""
        game = Game.objects.filter(pk=game_id).first() if isinstance(game_id, int) else None
        if game is None or game.pk in self.started or game.pk in self.finished:
            return []
        self.started.add(game.pk)
        return [game_line("gameStart", game)]

    def game_finished(self, game_id: object) -> list[Line]:
        """A game of the person's finished (said once)."""
        game = Game.objects.filter(pk=game_id).first() if isinstance(game_id, int) else None
        if game is None or game.pk in self.finished or game.status != Game.Status.OVER:
            return []
        self.finished.add(game.pk)
        self.started.discard(game.pk)  # the tables under way only: the beat's reads stay small
        return [game_line("gameFinish", game)]

    def news(self) -> list[Line]:
        """The notifications stored since the last said, each as its line."""
        rows = Notification.objects.filter(recipient=self.me, pk__gt=self.last_notice)
        rows = rows.select_related("game", "recipient").order_by("pk")
        lines = []
        for notice in rows:
            self.last_notice = notice.pk
            if notice.key.startswith(CHALLENGE):
                lines += challenge_lines(notice)
            elif notice.kind in LINE_OF_KIND:
                lines.append(notice_line(notice))
        return lines


def missed(feeds: Sequence[EventFeed]) -> list[bool]:
    """Which of these event streams missed what their groups did not tell (a table of their
    person's dealt or ended, a notification newer than their last line), in three reads for
    them all; and every person of them is still here for quick pairing (games/api/pairing.py)
    and their tournaments (games/api/tournaments.py), in one write each, as a waiting page's
    socket and a tournament page's say it. Each stream did five queries of its own at every
    heal (issue 49): 200 bots' event streams were about 170 a second."""
    people = {feed.me.pk for feed in feeds}
    pairing.still_here_all(people)
    tournaments_here_all(people)
    seats = Seat.objects.filter(
        user_id__in=people, resigned=False, game__status=Game.Status.RUNNING
    )
    running: dict[int, set[int]] = {}
    for user_id, game_id in seats.values_list("user_id", "game_id"):
        running.setdefault(user_id, set()).add(game_id)
    started = set().union(*(feed.started for feed in feeds))
    over = Game.objects.filter(pk__in=started, status=Game.Status.OVER)
    ended = set(over.values_list("pk", flat=True))
    notices = Notification.objects.filter(recipient_id__in=people).values("recipient_id")
    newest = dict(notices.annotate(newest=Max("pk")).values_list("recipient_id", "newest"))
    return [
        bool(running.get(feed.me.pk, set()) - feed.started)
        or bool(feed.started & ended)
        or newest.get(feed.me.pk, 0) > feed.last_notice
        for feed in feeds
    ]


@router.get(
    "/stream/event",
    response=REFUSED,
    openapi_extra=NDJSON_STREAM,
    summary="Stream your events",
)
def event_stream(request: HttpRequest) -> StreamingHttpResponse:
    """Your events as NDJSON (scope events:join or bot:play): `gameStart` for each table you play
    at now, then as they come `gameStart` (a table dealt with you in it), `yourTurn` (at a
    turn-based table), `gameFinish`, `invitation`, `rematch`, `tournament` (a round ready for
    you, a tournament's news), `challenge` (made to you), `challengeAccepted` and
    `challengeDeclined` (the answer to yours); a blank line now and then while nothing happens."""
    me = person(request)
    if not any(scope in token_of(request).scope_list for scope in SCOPES):
        raise Refused(403, "This token may not do that: it needs the scope “events:join”.")
    return open_stream(request, EventFeed(me))
