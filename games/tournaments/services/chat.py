"""A tournament's own chat: who writes in it, saying a line, and a moderator hiding lines.

The table chat's pieces and limits (games.services.chat): one line of printable text of 300
characters at most, and 5 lines in 10 seconds per person, counted over every table's chat and
every tournament's together. The entrants and the creator write; everyone who may see the
tournament's page reads. A line is announced to the tournament's page sockets once stored;
each shows it to its viewer without the people they block or muted.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User, signed_in
from games import events
from games.models import ChatMessage
from games.services import NotAllowed, ServiceError
from games.services.chat import RATE_WINDOW, check_pace, clean_line
from games.services.chat import now as chat_now
from games.services.moderation import log_moderation
from games.tournaments.models import ChatLine, Entrant, Tournament
from games.tournaments.services.base import lock_person

HIDE_PERMISSION = "tournaments.change_chatline"


def closed_because(tournament: Tournament) -> str:
    """Why no line may be said here any more ("" while the chat is open): a finished
    tournament keeps its chat, a cancelled or stopped one does not."""
    if tournament.status == Tournament.Status.CANCELLED:
        return gettext("This tournament was cancelled, so its chat is closed.")
    if tournament.status == Tournament.Status.STOPPED:
        return gettext("A moderator stopped this tournament, so its chat is closed.")
    return ""


def may_write(tournament: Tournament, user: User | AnonymousUser) -> bool:
    """The entrants (also those who left) and the creator write; nobody else."""
    if not signed_in(user) or getattr(user, "is_bot", False):
        return False
    if tournament.creator_id == user.pk:
        return True
    return Entrant.objects.filter(tournament=tournament, user_id=user.pk).exists()


def check_say(tournament: Tournament, user: User, text: object) -> str:
    """The cleaned line this person may say here now, or a ServiceError."""
    closed = closed_because(tournament)
    if closed:
        raise ServiceError(closed)
    if not user.is_active or not may_write(tournament, user):
        raise NotAllowed(
            gettext("Only the entrants and the tournament's creator write in its chat.")
        )
    line = clean_line(text)
    since = chat_now() - RATE_WINDOW
    said = ChatMessage.objects.filter(author=user, created_at__gt=since).count()
    said += ChatLine.objects.filter(author=user, created_at__gt=since).count()
    check_pace(said)
    return line


def say(tournament: Tournament, user: User, text: object) -> ChatLine:
    """Store a line (the person's row locked, so the rate limit holds) and announce it."""
    with transaction.atomic():
        lock_person(user)
        line = ChatLine.objects.create(
            tournament=tournament,
            author=user,
            text=check_say(tournament, user, text),
            created_at=chat_now(),
        )
        pk = tournament.pk
        transaction.on_commit(lambda: announce_chat(pk))
    return line


def announce_chat(tournament_id: int) -> None:
    """Tell the tournament's page sockets that its chat changed (a line came, or was hidden):
    each reads the lines again if it read them before this moment."""
    events.tournament_chat_changed.tell(tournament_id)


def hide(lines: Iterable[ChatLine], moderator: User, hidden: bool = True) -> int:
    """A moderator hides (or shows again) lines; they vanish from every screen. Each changed
    line gets a line in the admin log, like every moderator action."""
    if not moderator.has_perm(HIDE_PERMISSION):
        raise NotAllowed(gettext("Only a moderator can hide chat lines."))
    with transaction.atomic():
        ids = [line.pk for line in lines]
        changed = list(
            ChatLine.objects.select_for_update().filter(pk__in=ids).exclude(hidden=hidden)
        )
        ChatLine.objects.filter(pk__in=[line.pk for line in changed]).update(hidden=hidden)
        if changed:
            log_moderation(
                moderator, changed, "Hid the line" if hidden else "Showed the line again"
            )
        for tournament_id in {line.tournament_id for line in changed}:
            transaction.on_commit(lambda t=tournament_id: announce_chat(t))  # type: ignore[misc]
    return len(changed)
