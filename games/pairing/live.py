"""The waiting page's socket (/ws/pairing/): it keeps the person's seek alive, shows the waiting
panel as it moves, and sends the page to the table once they are seated.

While it is open it says every BEAT_SECONDS that the page is still there (the seek's last_seen)
and pushes the panel drawn anew (the rating window, the wait, who else looks). It sits in the
person's user group, so a pass's announcement (groups.go_to) reaches it at once; should that
message be lost (a channel layer delivers at most once), the next beat finds the seek gone and
the table it became. When it closes (the page was left), the seek is let go by the pass once
services.GRACE_SECONDS passed without a beat: a reload comes back well within that.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import parse_qs

from django.template.loader import render_to_string

from games.live import caps
from games.live.protocol import go_html
from games.live.push_threads import off_loop
from games.live.sessions import SESSION_ENDED, SocketSession
from games.live.socket import Socket
from games.pairing import services
from games.pairing.panels import panel_context
from games.pairing.shown import looking, waiting

BEAT_SECONDS = 2.0
ENDED = '<template id="pairing-ended"></template>'
"""What tells the page its search ended without a table (stopped in another tab, or let go):
the page then asks for the lobby's "Find a game" forms again."""


@dataclass(frozen=True)
class Beat:
    """What one beat sends: a close code, or HTML (the panel, the table to go to, or the end of
    the search), and the start of the seek it saw."""

    close: int | None = None
    html: str = ""
    since: datetime | None = None
    ended: bool = False


def beat(session: SocketSession, since: datetime | None) -> Beat:
    """The page is still here: its seek kept alive and drawn, or where the search ended."""
    if not session.alive():
        return Beat(close=SESSION_ENDED)
    seek = services.still_here(session.user_id)
    if seek is None:
        url = services.table_since(session.user_id, since) if since is not None else None
        return Beat(html=go_html(url) if url else ENDED, ended=True)
    shown = waiting(seek, looking())
    html = render_to_string("pairing/_waiting.html", panel_context(shown))
    return Beat(html=html, since=seek.created_at)


def asked_since(scope: dict[str, object]) -> datetime | None:
    """When the search the page shows began (its panel's data-since, sent as ?since=): where a
    beat that finds no seek looks for the table the person was seated at since. None if absent
    or garbled. It only ever leads to this person's own table."""
    query = scope.get("query_string")
    raw = parse_qs(query.decode("latin-1") if isinstance(query, bytes) else "").get("since")
    try:
        since = datetime.fromisoformat(raw[0]) if raw else None
    except ValueError:
        return None
    return since if since is None or since.tzinfo is not None else since.replace(tzinfo=UTC)


class PairingConsumer(Socket):
    """Beats while the page waits; follows the person to the table they were seated at."""

    shows_badge = False  # the waiting panel is all its page takes
    beats_at_once = True
    since: datetime | None = None

    def asked(self) -> None:
        self.since = asked_since(self.scope)

    async def check(self) -> int | None:
        """Only a signed-in person looks for a game (their own group hears of their table)."""
        return SESSION_ENDED if self.session is None else None

    def place(self) -> str:
        return caps.PAIRING

    def beat_seconds(self) -> float:
        return BEAT_SECONDS

    async def beat(self) -> None:
        """The seek kept alive and the panel drawn anew, or the page sent where it ended."""
        assert self.session is not None
        done = await off_loop(beat)(self.session, self.since)
        if done.close is not None:
            await self.end(done.close)
            return
        self.since = done.since or self.since
        await self.send_html(done.html)
        if done.ended:
            await self.end(1000)

    async def page_go(self, event: dict[str, object]) -> None:
        """A pass seated this person (groups.go_to): the page goes to the table."""
        html = go_html(event.get("url"))
        if html:
            await self.send_html(html)
            await self.end(1000)
