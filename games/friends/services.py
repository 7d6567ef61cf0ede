"""Friends and blocks changed: the one place that changes them (the rows are accounts'
Friendship and Block; the reads the tables need are accounts/friends.py).

A friend request is a Friendship row from the asker to the other person; accepted, the two are
friends. A request from the other person that is already there is accepted instead of sending a
second one. Once a request, a yes or a block commits, it is told through the typed events
(games/events.py: friend_asked, friend_accepted, friend_blocked; the notifications hear them).
A block keeps the blocked person from sending requests and invitations, from sitting at the
blocker's tables and from being seen in the blocker's chat; it ends any friendship.
"""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils.translation import gettext

from accounts.emails import under_limit
from accounts.friends import blocks, pair
from accounts.models import Block, Friendship, User
from games import events

# Friend requests one person may send per hour (accounts.emails.LIMIT_WINDOW).
REQUESTS_PER_HOUR = 20


def announce(event: events.FriendChanged, by: User, to: User, request: int) -> None:
    """Tell the event once the transaction commits."""
    by_id, to_id = by.pk, to.pk
    transaction.on_commit(lambda: event.tell(by_id, to_id, request))


class FriendRefused(Exception):
    """A refused friend or block change; the message is a sentence the person can read."""


def lock_pair(a: User, b: User) -> None:
    """Both people's rows locked, the lower id first (a person's row before any game's, as
    everywhere): two requests crossing each other, or a request and a block, queue."""
    no_key = connection.features.has_select_for_no_key_update
    list(User.objects.select_for_update(no_key=no_key).filter(pk__in=[a.pk, b.pk]).order_by("pk"))


def refusals(verb: str) -> tuple[str, str]:
    """Why this verb (befriend, accept, decline, unfriend, block, unblock) has nobody to act on,
    and why not on yourself, in the reader's language."""
    words = {
        "befriend": (
            gettext("There is no such person to befriend."),
            gettext("You cannot befriend yourself."),
        ),
        "accept": (
            gettext("There is no such person to accept."),
            gettext("You cannot accept yourself."),
        ),
        "decline": (
            gettext("There is no such person to decline."),
            gettext("You cannot decline yourself."),
        ),
        "unfriend": (
            gettext("There is no such person to unfriend."),
            gettext("You cannot unfriend yourself."),
        ),
        "block": (
            gettext("There is no such person to block."),
            gettext("You cannot block yourself."),
        ),
        "unblock": (
            gettext("There is no such person to unblock."),
            gettext("You cannot unblock yourself."),
        ),
    }
    return words[verb]


def check_person(user: User, other: User | None, verb: str) -> User:
    """The other person, if they are someone else than the user and not a bot."""
    nobody, yourself = refusals(verb)
    if other is None or other.is_bot or not other.is_active:
        raise FriendRefused(nobody)
    if other.pk == user.pk:
        raise FriendRefused(yourself)
    return other


@transaction.atomic
def ask(user: User, other: User | None) -> bool:
    """Send a friend request (or accept theirs, when they asked first); whether now friends."""
    other = check_person(user, other, "befriend")
    lock_pair(user, other)
    if blocks(user, other):
        raise FriendRefused(
            gettext("You block %(name)s: unblock them first.") % {"name": other.username}
        )
    if blocks(other, user):
        raise FriendRefused(
            gettext("%(name)s does not take friend requests from you.") % {"name": other.username}
        )
    row = Friendship.objects.filter(pair(user, other)).first()
    if row is not None and row.accepted:
        raise FriendRefused(
            gettext("You and %(name)s are already friends.") % {"name": other.username}
        )
    if row is not None and row.from_user_id == user.pk:
        raise FriendRefused(
            gettext("You already asked %(name)s; they have not answered yet.")
            % {"name": other.username}
        )
    if row is not None:
        row.accepted = True
        row.save(update_fields=["accepted"])
        announce(events.friend_accepted, user, other, row.pk)
        return True
    if not under_limit(f"friend-requests:user:{user.pk}", REQUESTS_PER_HOUR):
        raise FriendRefused(
            gettext("You sent %(count)d friend requests this hour; try again later.")
            % {"count": REQUESTS_PER_HOUR}
        )
    try:
        with transaction.atomic():
            created = Friendship.objects.create(from_user=user, to_user=other)
    except IntegrityError:
        raise FriendRefused(
            gettext("You already asked %(name)s.") % {"name": other.username}
        ) from None
    announce(events.friend_asked, user, other, created.pk)
    return False


@transaction.atomic
def accept(user: User, other: User | None) -> None:
    """Accept the other person's friend request."""
    other = check_person(user, other, "accept")
    asked = Friendship.objects.filter(from_user=other, to_user=user, accepted=False)
    request = asked.values_list("pk", flat=True).first()
    if request is None or not asked.filter(pk=request).update(accepted=True):
        raise FriendRefused(
            gettext("%(name)s has not asked to be your friend.") % {"name": other.username}
        )
    announce(events.friend_accepted, user, other, request)


@transaction.atomic
def decline(user: User, other: User | None) -> None:
    """Say no to the other person's friend request (they may ask again later)."""
    other = check_person(user, other, "decline")
    deleted, _ = Friendship.objects.filter(from_user=other, to_user=user, accepted=False).delete()
    if not deleted:
        raise FriendRefused(
            gettext("%(name)s has not asked to be your friend.") % {"name": other.username}
        )


@transaction.atomic
def remove(user: User, other: User | None) -> None:
    """End a friendship, or take back a request not yet answered."""
    other = check_person(user, other, "unfriend")
    mine = Q(accepted=True) | Q(from_user=user)
    deleted, _ = Friendship.objects.filter(pair(user, other)).filter(mine).delete()
    if not deleted:
        raise FriendRefused(gettext("You and %(name)s are not friends.") % {"name": other.username})


@transaction.atomic
def block(user: User, other: User | None) -> None:
    """Block the other person; any friendship or request between the two ends."""
    other = check_person(user, other, "block")
    lock_pair(user, other)
    Block.objects.get_or_create(blocker=user, blocked=other)
    between = Friendship.objects.filter(pair(user, other))
    requests = list(between.values_list("pk", flat=True))
    between.delete()
    by, to = user.pk, other.pk
    transaction.on_commit(lambda: events.friend_blocked.tell(by, to, requests))


@transaction.atomic
def unblock(user: User, other: User | None) -> None:
    """Stop blocking the other person (no friendship comes back by itself)."""
    other = check_person(user, other, "unblock")
    deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
    if not deleted:
        raise FriendRefused(gettext("You do not block %(name)s.") % {"name": other.username})
