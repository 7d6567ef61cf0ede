"""The table chat: who may read and write it, saying a line, muting, and hiding (moderators).

A line is stored (ChatMessage, never an Action) and pushed to the table's sockets once its
transaction commits; each socket renders the chat for its own viewer (mutes, hidden lines).
Limits: 300 characters a line, 5 lines in 10 seconds per person (at every table together).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User, signed_in
from games import events
from games.models import ChatMessage, Game, Mute, Seat, TableSocket
from games.services.base import NotAllowed, ServiceError, lock_user
from games.services.moderation import log_moderation

RATE_LIMIT = 5
RATE_WINDOW = timedelta(seconds=10)


class TooFast(ServiceError):
    """More lines than the rate limit allows."""

    status = 429


def now() -> datetime:
    """The chat's clock (tests move it)."""
    return timezone.now()


def seated_person(seats: Iterable[Seat], user: User | AnonymousUser) -> bool:
    """Whether the user is a person (not a bot) seated at the table."""
    if not signed_in(user):
        return False
    return any(s.user_id == user.pk and not s.user.is_bot for s in seats)


def may_read(game: Game, user: User | AnonymousUser, seats: Iterable[Seat]) -> bool:
    """The players read the chat; spectators too when the host allowed them."""
    return game.spectator_chat or seated_person(seats, user)


def may_write(game: Game, user: User | AnonymousUser, seats: Iterable[Seat]) -> bool:
    """The players write in the chat; signed-in spectators too when the host allowed them."""
    if not signed_in(user) or getattr(user, "is_bot", False):
        return False
    return game.spectator_chat or seated_person(seats, user)


def closed_because(game: Game) -> str:
    """Why no line may be said at this table any more ("" while its chat is open).

    A finished game keeps its chat (a word after the last bake); a table that was called off or
    stopped by a moderator does not.
    """
    if game.status == Game.Status.CANCELLED:
        return gettext("This table was called off, so its chat is closed.")
    if game.status == Game.Status.ABORTED:
        return gettext("A moderator stopped this game, so its chat is closed.")
    return ""


def clean_line(text: object) -> str:
    """The line as stored: one line of printable text, or a ServiceError saying what is wrong."""
    if not isinstance(text, str):
        raise ServiceError(gettext("Write a message first."))
    line = " ".join(text.split())
    if not line:
        raise ServiceError(gettext("Write a message first."))
    if len(line) > ChatMessage.MAX_LENGTH:
        raise ServiceError(
            gettext("A message is at most %(most)d characters; yours has %(count)d.")
            % {"most": ChatMessage.MAX_LENGTH, "count": len(line)}
        )
    if not all(shown(c) for c in line):
        raise ServiceError(gettext("The message holds characters that cannot be shown."))
    return line


# What people type inside emoji: joiners (a cook is woman + ZWJ + cooking) and the tag
# characters of subdivision flags. Skin tones (Sk) and variation selectors (Mn) are marks already.
EMOJI_FORMAT = {"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))}


def shown(character: str) -> bool:
    """Whether a chat line may hold this character: anything but controls, bidi overrides,
    private-use, unassigned and other invisible format characters, save those of emoji."""
    return character in EMOJI_FORMAT or not unicodedata.category(character).startswith("C")


def check_say(game: Game, user: User, text: object) -> str:
    """The cleaned line this person may say at this table now, or a ServiceError."""
    closed = closed_because(game)
    if closed:
        raise ServiceError(closed)
    seats = list(game.seats.select_related("user"))
    if not may_write(game, user, seats):
        raise NotAllowed(gettext("Only the players can chat at this table."))
    line = clean_line(text)
    check_pace(ChatMessage.objects.filter(author=user, created_at__gt=now() - RATE_WINDOW).count())
    return line


def check_pace(said: int) -> None:
    """Refuse one more line to a person who said `said` lines in the last RATE_WINDOW (counted
    by the caller over every chat it knows: a tournament's adds its own), RATE_LIMIT at most."""
    if said >= RATE_LIMIT:
        raise TooFast(
            gettext(
                "You are sending messages too fast (%(most)d in %(seconds)d seconds at most); "
                "wait a moment."
            )
            % {"most": RATE_LIMIT, "seconds": int(RATE_WINDOW.total_seconds())}
        )


@transaction.atomic
def say(game: Game, user: User, text: object) -> ChatMessage:
    """Store a chat line (the person's row locked, so the rate limit holds) and push it."""
    if user.is_authenticated:
        lock_user(user)
    line = check_say(game, user, text)
    message = ChatMessage.objects.create(game=game, author=user, text=line, created_at=now())
    if not game.chatted:  # the table's pages read its chat lines from now on
        Game.objects.filter(pk=game.pk, chatted=False).update(chatted=True)
        game.chatted = True
    game_id = game.pk
    transaction.on_commit(lambda: announce_chat(game_id))
    return message


def announce_chat(game_id: int) -> None:
    """Tell the table's sockets to redraw their chat (a line came, or was hidden)."""
    events.chat_changed.tell(game_id)


def announce_chat_to_user(user_id: int, game_id: int) -> None:
    """Tell one person's sockets at a table to redraw their chat (they muted or unmuted)."""
    events.chat_changed.tell(game_id, user_id)


def redraw_everywhere(user_id: int) -> None:
    """Tell the person's sockets at every table to redraw their chat (they blocked someone)."""
    open_here = TableSocket.objects.filter(user_id=user_id, open=True, game__isnull=False)
    games = open_here.values_list("game_id", flat=True)  # not the sockets of other pages
    for game_id in sorted(set(games)):
        announce_chat_to_user(user_id, game_id)


def check_mute(user: User, other: User | None) -> User:
    """The person this user may mute, or a ServiceError."""
    if other is None or other.is_bot:
        raise ServiceError(gettext("There is no such person to mute."))
    if other.pk == user.pk:
        raise ServiceError(gettext("You cannot mute yourself."))
    return other


def mute(user: User, other: User | None, game_id: int) -> None:
    """This user no longer sees the other's lines, at any table (their own screens redraw)."""
    muted = check_mute(user, other)
    with transaction.atomic():  # committed together: a page that reads no mutes has none
        Mute.objects.get_or_create(user=user, muted=muted)
        # Their tables' pages read whom they muted from now on (User.muted_someone).
        User.objects.filter(pk=user.pk, muted_someone=False).update(muted_someone=True)
    user.muted_someone = True
    announce_chat_to_user(user.pk, game_id)


def unmute(user: User, other: User | None, game_id: int) -> None:
    """This user sees the other's lines again."""
    if other is None:
        raise ServiceError(gettext("There is no such person to unmute."))
    Mute.objects.filter(user=user, muted=other).delete()
    announce_chat_to_user(user.pk, game_id)


def check_hide(moderator: User) -> None:
    """Refuse anyone who may not hide chat lines."""
    if not moderator.has_perm("games.change_chatmessage"):
        raise NotAllowed(gettext("Only a moderator can hide chat lines."))


@transaction.atomic
def hide(messages: Iterable[ChatMessage], moderator: User, hidden: bool = True) -> int:
    """A moderator hides (or shows again) chat lines; they vanish from every screen.

    Each changed line gets a line in the admin log, like every moderator action.
    """
    check_hide(moderator)
    ids = [m.pk for m in messages]
    changed = list(
        ChatMessage.objects.select_for_update().filter(pk__in=ids).exclude(hidden=hidden)
    )
    ChatMessage.objects.filter(pk__in=[m.pk for m in changed]).update(hidden=hidden)
    if changed:
        log_moderation(moderator, changed, "Hid the line" if hidden else "Showed the line again")
    for game_id in {m.game_id for m in changed}:
        transaction.on_commit(lambda g=game_id: announce_chat(g))  # type: ignore[misc]
    return len(changed)
