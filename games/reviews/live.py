"""A review page's socket (/ws/games/<id>/review/<seat>/): the review drawn anew each time the
lane weighs one more decision of it, or ends it (events.review_progressed, told to the review's
group by games/groups.py), so its progress moves without a reload. Without a script the page
polls its part instead (the same partial, htmx)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from accounts.models import User
from games.access import can_watch, invited_to, watch_refused
from games.groups import review_group
from games.live.protocol import NOT_FOUND
from games.live.push_threads import off_loop
from games.live.socket import Socket
from games.models import Game
from games.reviews.models import Review
from games.reviews.views import may_read, review_context

NO_REVIEW = '<template id="no-review-yet"></template>'
"""The first part of a socket whose seat has no review yet: its page keeps its ask form."""


@dataclass(frozen=True)
class Drawn:
    """The review's part as this viewer may see it, or a close code; whether it is over."""

    close: int | None = None
    html: str = ""
    over: bool = False


def drawn(game_id: int, seat: int, user: User | AnonymousUser, invited: list[int]) -> Drawn:
    """The review's part for this viewer, drawn from the database (no review yet: nothing)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_watch(game, user, invited) or watch_refused(game, user):
        return Drawn(close=NOT_FOUND)
    if not game.seats.filter(position=seat).exists() or not may_read(game, user, seat):
        return Drawn(close=NOT_FOUND)
    ctx = review_context(game, seat, user)
    review = ctx["review"]
    if not isinstance(review, Review):
        return Drawn(html=NO_REVIEW)
    ctx.update(live=True, user=user)
    over = review.whole or review.status == Review.Status.FAILED
    return Drawn(html=render_to_string("reviews/_review.html", ctx), over=over)


def review_place(game_id: int, seat: int) -> str:
    """A review page's socket's place, for the caps."""
    return f"review:{game_id}:{seat}"


class ReviewConsumer(Socket):
    """Pushes one seat's review as it is worked, to every page that shows it."""

    shows_badge = False  # the review is all its page takes
    game_id: int
    seat: int
    first: Drawn | None = None

    def asked(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.game_id, self.seat = int(kwargs["game_id"]), int(kwargs["seat"])

    def page_groups(self) -> list[str]:
        """The review's group: each decision weighed, and its end."""
        return [review_group(self.game_id, self.seat)]

    async def check(self) -> int | None:
        """The game gone or not for this viewer, or a private game's review not theirs."""
        invited = invited_to(self.scope.get("session"))
        draw = off_loop(drawn, self.language)
        self.first = await draw(self.game_id, self.seat, self.scope["user"], invited)
        return self.first.close

    def place(self) -> str:
        return review_place(self.game_id, self.seat)

    async def opened(self) -> None:
        """The review as it is now (its page may be older than the socket)."""
        first, self.first = self.first, None
        if first is not None:
            await self.show(first)

    async def review_progressed(self, event: dict[str, object]) -> None:
        """A decision more was weighed, or the review ended: drawn anew."""
        invited = invited_to(self.scope.get("session"))
        async with self.pushing:
            draw = off_loop(drawn, self.language)
            await self.show(await draw(self.game_id, self.seat, self.scope["user"], invited))

    async def show(self, done: Drawn) -> None:
        """Send the part; close when it is refused, or once the review is whole."""
        if done.close is not None:
            await self.end(done.close)
            return
        await self.send_html(done.html)
        if done.over:
            await self.end(1000)
