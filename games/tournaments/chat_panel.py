"""What a tournament's chat panel shows a viewer: the newest lines, without those of the people
they block or muted (the services change the lines: services/chat.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser

from accounts.models import Block, User, signed_in
from games.models import Mute
from games.tournaments.models import ChatLine, Tournament
from games.tournaments.services.chat import closed_because

CHAT_SHOWN = 50
"""The newest lines a page shows."""


@dataclass(frozen=True)
class Said:
    """One chat line as a page shows it."""

    pk: int
    author_id: int
    username: str
    text: str


SAID_FIELDS = ("pk", "author_id", "author__username", "text")


def hidden_authors(user: User | AnonymousUser) -> frozenset[int]:
    """Whose lines this viewer does not see: the people they block or muted (one query)."""
    if not signed_in(user):
        return frozenset()
    blocked = Block.objects.filter(blocker=user).values_list("blocked_id", flat=True)
    muted = Mute.objects.filter(user=user).values_list("muted_id", flat=True)
    return frozenset(blocked.union(muted))


def recent_lines(
    tournament_id: int, hidden: frozenset[int] = frozenset(), limit: int = CHAT_SHOWN
) -> list[Said]:
    """The newest lines not hidden by a moderator, oldest first, without these authors'."""
    rows = ChatLine.objects.filter(tournament_id=tournament_id, hidden=False)
    if hidden:
        rows = rows.exclude(author_id__in=hidden)
    found = rows.order_by("-created_at", "-pk").values_list(*SAID_FIELDS)[:limit]
    return [Said(*row) for row in reversed(found)]


def chat_context(
    tournament: Tournament, user: User | AnonymousUser, writer: bool
) -> dict[str, object]:
    """What the chat panel shows this viewer (`writer`: an entrant or the creator)."""
    closed = closed_because(tournament)
    return {
        "t": tournament,
        "lines": recent_lines(tournament.pk, hidden_authors(user)),
        "signed_in": signed_in(user),
        "writable": writer and not closed,
        "closed": closed,
        "max_length": ChatLine.MAX_LENGTH,
    }
