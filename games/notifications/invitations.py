"""Inviting a friend to your open table: checked, limited, and announced with `invited`.

The invitation itself is the friend's notification: receivers.py listens to `invited`
(games.services.base) and stores one row per friend and table with the table's link (its invite
link for a private table); that row is what says the friend is invited already. The hourly limit
lives in Django's cache, like accounts.emails' (one count across processes with CACHE_URL).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts import friends
from accounts.emails import under_limit
from accounts.models import User
from games import events
from games.models import Game
from games.notifications.services import invited_to
from games.services import NotAllowed, ServiceError, closed_reason

# Invitations one person may send per hour, at all their tables together.
INVITES_PER_HOUR = 20


class TooMany(ServiceError):
    """More invitations than the limits allow."""

    status = 429


def check_invite(game: Game, by: User, to: User | None) -> User:
    """The friend this person may invite to this table now, or a ServiceError."""
    if to is None or to.is_bot:
        raise ServiceError(gettext("There is no such person to invite."))
    if to.pk == by.pk:
        raise ServiceError(gettext("You cannot invite yourself."))
    if game.status != Game.Status.OPEN:
        raise ServiceError(closed_reason(game))
    seated = set(game.seats.values_list("user_id", flat=True))
    if by.pk not in seated:
        raise NotAllowed(gettext("Only the people at a table can invite friends to it."))
    if friends.blocked_between(by, to):
        raise NotAllowed(gettext("You cannot invite %(name)s.") % {"name": to.username})
    if not friends.are_friends(by, to):
        raise NotAllowed(
            gettext("You can invite only your friends, and %(name)s is not one yet.")
            % {"name": to.username}
        )
    if to.pk in seated:
        raise ServiceError(gettext("%(name)s already sits at this table.") % {"name": to.username})
    if len(seated) >= game.capacity:
        raise ServiceError(gettext("Every seat at this table is taken."))
    if invited_to(game, [to.pk]):
        raise ServiceError(
            gettext("%(name)s is already invited to this table.") % {"name": to.username}
        )
    if not under_limit(f"invites:user:{by.pk}", INVITES_PER_HOUR):
        raise TooMany(
            gettext("You sent %(count)d invitations this hour; try again later.")
            % {"count": INVITES_PER_HOUR}
        )
    return to


@transaction.atomic
def invite(game: Game, by: User, to: User | None) -> User:
    """Invite a friend to the table; `invited` is sent once the transaction commits."""
    friend = check_invite(game, by, to)
    game_id, by_id, to_id = game.pk, by.pk, friend.pk
    transaction.on_commit(lambda: events.invited.tell(game_id, by_id, to_id))
    return friend


def invitable(game: Game, user: User) -> list[tuple[User, bool]]:
    """The friends this person could invite to this open table (not seated), each with whether
    they are invited already."""
    seated = set(game.seats.values_list("user_id", flat=True))
    if game.status != Game.Status.OPEN or user.pk not in seated:
        return []
    ids = friends.friend_ids(user) - seated
    people = list(User.objects.filter(pk__in=ids, is_active=True).order_by("username"))
    done = invited_to(game, [p.pk for p in people])
    return [(p, p.pk in done) for p in people]
