"""A person deletes their own account: their name goes, their games' records stay.

After the password is confirmed, in one transaction: the account is renamed "a deleted baker
#n" (its username from then on, so every page and export shows it), can no longer log in and
keeps no address; bots take its running seats for good and its open tables are left or
cancelled; its chat lines, mutes and ratings go (so it leaves the boards); its finished games
keep their seats, scores and places. The old username is held from sign-ups for
NAME_HELD_DAYS (accounts.models.HeldName).
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts import friends
from accounts.models import (
    DELETED_BAKER,
    MAIL_KINDS,
    HeldName,
    Rating,
    RatingPoint,
    User,
    deleted_name,
)
from games import events
from games.models import LIVE, ChatMessage, Game, Mute, Seat
from games.services.autoplay import inline_bots
from games.services.base import NotAllowed, ServiceError, commit_version, lock, lock_user
from games.services.chat import announce_chat
from games.services.handover import DELETED
from games.services.moderation import give_up_tables


def check_delete(person: User, password: str) -> None:
    """Refuse to delete an account unless its own person confirmed it with the password."""
    if person.is_bot:
        raise ServiceError(gettext("House bots are not people; they have no account to delete."))
    if person.deleted_at is not None:
        raise ServiceError(gettext("This account is already deleted."))
    if not password or not person.check_password(password):
        raise NotAllowed(gettext("That is not your password: nothing was deleted."))


def delete_account(person: User, password: str) -> User:
    """Delete the person's account (see the module); bots move in its running games after the
    commit. The account row stays, renamed, so finished games keep who sat where."""
    person, handed = do_delete_account(person, password)
    for game_id in handed:
        inline_bots(game_id)
    return person


@transaction.atomic
def do_delete_account(person: User, password: str) -> tuple[User, list[int]]:
    """Everything in one transaction; the games whose seats bots took just now.

    The person's row is locked first, then their games in id order (see base.lock_user).
    """
    person = lock_user(person.pk)
    check_delete(person, password)
    old_name = person.username
    # Renamed before the seats are handed over (their notices name nobody, see handover.DELETED).
    person.username = deleted_name(person.pk)
    person.is_active = False
    person.set_unusable_password()
    person.email, person.email_verified = "", False
    person.first_name, person.last_name = "", ""
    person.move_sound = False
    person.muted_someone = False  # their mutes go with them (forget_chat)
    person.last_seen = None  # when they were last at a table is theirs, not the site's
    for kind in MAIL_KINDS:
        setattr(person, f"mail_{kind}", False)
    person.deleted_at = timezone.now()
    person.save()
    HeldName.hold(old_name)
    handed = give_up_tables(person, DELETED)
    forget_chat(person)
    friends.forget(person)
    Rating.objects.filter(user=person).delete()
    RatingPoint.objects.filter(user=person).delete()
    rename_in_notices(person, old_name)
    events.account_deleted.tell(person, old_name)  # its notifications go with it
    # The admin log's lines about the account named it; they name the deleted baker now.
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(person.pk)
    ).update(object_repr=person.username)
    person_id = person.pk
    transaction.on_commit(lambda: events.session_changed.tell([person_id]))
    return person, handed


def forget_chat(person: User) -> None:
    """The person's chat lines and mutes (theirs and of them) go; their tables redraw the chat."""
    lines = ChatMessage.objects.filter(author=person)
    games = sorted(set(lines.values_list("game_id", flat=True)))
    lines.delete()
    Mute.objects.filter(Q(user=person) | Q(muted=person)).delete()
    for game_id in games:
        transaction.on_commit(lambda g=game_id: announce_chat(g))  # type: ignore[misc]


def renamed(entry: dict[str, Any], whole: re.Pattern[str]) -> dict[str, Any]:
    """A stored notice with the name `whole` matches said as DELETED_BAKER, in its English text
    and in its values (base.notice keeps both)."""
    entry = {**entry}
    if "text" in entry:
        entry["text"] = whole.sub(DELETED_BAKER, entry["text"])
    if isinstance(entry.get("with"), dict):
        entry["with"] = {k: whole.sub(DELETED_BAKER, str(v)) for k, v in entry["with"].items()}
    return entry


def rename_in_notices(person: User, old_name: str) -> None:
    """Notices at the person's tables that named them ("alice left: ...") say "a deleted baker"
    (no number: the seat beside it says which).

    Only the whole name is replaced, not a longer name that contains it.
    """
    whole = re.compile(rf"(?<![\w.@+-]){re.escape(old_name)}(?![\w.@+-])")
    sat = Seat.objects.filter(user=person).values("game_id")
    for game_id in Game.objects.filter(pk__in=sat).order_by("pk").values_list("pk", flat=True):
        game = lock(game_id)
        notices = [renamed(n, whole) for n in game.notices]
        if notices == game.notices:
            continue
        game.notices = notices
        if game.status in LIVE:
            commit_version(game, ["notices"])
        else:
            game.save(update_fields=["notices"])
