"""Friends and blocks: the one place that changes them (accounts imports no game code).

A friend request is a Friendship row from the asker to the other person; accepted, the two are
friends. A request from the other person that is already there is accepted instead of sending a
second one. Once a request or a yes commits, `friend_asked` or `friend_accepted` is sent (games'
notifications listen). A block keeps the blocked person from sending requests and invitations,
from sitting at the blocker's tables and from being seen in the blocker's chat; it ends any
friendship.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.dispatch import Signal

from accounts.emails import under_limit
from accounts.models import Block, Friendship, User

# Friend requests one person may send per hour (accounts.emails.LIMIT_WINDOW).
REQUESTS_PER_HOUR = 20

# Sent once the change commits, with user ids `by` and `to` and the Friendship row's id `request`:
# friend_asked when `by` asks `to`; friend_accepted when `by` accepts the request `to` sent;
# friend_blocked when `by` blocks `to`, with `requests`, the ids of the rows the block ended.
friend_asked = Signal()
friend_accepted = Signal()
friend_blocked = Signal()


def announce(signal: Signal, by: User, to: User, request: int) -> None:
    """Send the signal once the transaction commits."""
    transaction.on_commit(lambda: signal.send(Friendship, by=by.pk, to=to.pk, request=request))


class FriendRefused(Exception):
    """A refused friend or block change; the message is a sentence the person can read."""


@dataclass(frozen=True)
class Relation:
    """How the viewer stands to a person: what their profile's buttons offer."""

    me: bool = False
    friends: bool = False
    asked: bool = False  # the viewer asked, no answer yet
    asks: bool = False  # the person asked the viewer, no answer yet
    blocking: bool = False  # the viewer blocks the person
    blocked: bool = False  # the person blocks the viewer


def pair(a: User | int, b: User | int) -> Q:
    """The Friendship rows between two people, in either direction."""
    a_id, b_id = (x if isinstance(x, int) else x.pk for x in (a, b))
    return Q(from_user_id=a_id, to_user_id=b_id) | Q(from_user_id=b_id, to_user_id=a_id)


def blocks(blocker: User | int, blocked: User | int) -> bool:
    """Whether the first person blocks the second."""
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def blocked_between(a: User | int, b: User | int) -> bool:
    """Whether either person blocks the other."""
    return Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a)).exists()


def blocked_ids(user: User | int) -> set[int]:
    """The people this person blocks."""
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def are_friends(a: User | int, b: User | int) -> bool:
    """Whether the two are friends (a request accepted, either way)."""
    return Friendship.objects.filter(pair(a, b), accepted=True).exists()


def friend_ids(user: User | int) -> set[int]:
    """The ids of this person's friends (one query)."""
    pk = user if isinstance(user, int) else user.pk
    rows = Friendship.objects.filter(Q(from_user_id=pk) | Q(to_user_id=pk), accepted=True)
    return {a if b == pk else b for a, b in rows.values_list("from_user_id", "to_user_id")}


def friends_of(user: User) -> list[User]:
    """This person's friends, by name."""
    return list(User.objects.filter(pk__in=friend_ids(user)).order_by("username"))


def asking(user: User) -> list[User]:
    """The people waiting for this person's answer to their friend request, oldest first."""
    rows = Friendship.objects.filter(to_user=user, accepted=False).order_by("created_at", "pk")
    return [row.from_user for row in rows.select_related("from_user")]


def asked_by(user: User) -> list[User]:
    """The people this person asked to be friends who have not answered yet."""
    rows = Friendship.objects.filter(from_user=user, accepted=False).order_by("created_at", "pk")
    return [row.to_user for row in rows.select_related("to_user")]


def blocked_by(user: User) -> list[User]:
    """The people this person blocks, by name."""
    return list(User.objects.filter(blocked_by__blocker=user).order_by("username"))


def relation(viewer: User, person: User) -> Relation:
    """How the viewer stands to the person (two queries; none for oneself)."""
    if viewer.pk == person.pk:
        return Relation(me=True)
    row = Friendship.objects.filter(pair(viewer, person)).first()
    blocking = set(
        Block.objects.filter(
            Q(blocker=viewer, blocked=person) | Q(blocker=person, blocked=viewer)
        ).values_list("blocker_id", flat=True)
    )
    return Relation(
        friends=row is not None and row.accepted,
        asked=row is not None and not row.accepted and row.from_user_id == viewer.pk,
        asks=row is not None and not row.accepted and row.from_user_id == person.pk,
        blocking=viewer.pk in blocking,
        blocked=person.pk in blocking,
    )


def lock_pair(a: User, b: User) -> None:
    """Both people's rows locked, the lower id first (a person's row before any game's, as
    everywhere): two requests crossing each other, or a request and a block, queue."""
    no_key = connection.features.has_select_for_no_key_update
    list(User.objects.select_for_update(no_key=no_key).filter(pk__in=[a.pk, b.pk]).order_by("pk"))


def check_person(user: User, other: User | None, verb: str) -> User:
    """The other person, if they are someone else than the user and not a bot."""
    if other is None or other.is_bot or not other.is_active:
        raise FriendRefused(f"There is no such person to {verb}.")
    if other.pk == user.pk:
        raise FriendRefused(f"You cannot {verb} yourself.")
    return other


@transaction.atomic
def ask(user: User, other: User | None) -> bool:
    """Send a friend request (or accept theirs, when they asked first); whether now friends."""
    other = check_person(user, other, "befriend")
    lock_pair(user, other)
    if blocks(user, other):
        raise FriendRefused(f"You block {other.username}: unblock them first.")
    if blocks(other, user):
        raise FriendRefused(f"{other.username} does not take friend requests from you.")
    row = Friendship.objects.filter(pair(user, other)).first()
    if row is not None and row.accepted:
        raise FriendRefused(f"You and {other.username} are already friends.")
    if row is not None and row.from_user_id == user.pk:
        raise FriendRefused(f"You already asked {other.username}; they have not answered yet.")
    if row is not None:
        row.accepted = True
        row.save(update_fields=["accepted"])
        announce(friend_accepted, user, other, row.pk)
        return True
    if not under_limit(f"friend-requests:user:{user.pk}", REQUESTS_PER_HOUR):
        raise FriendRefused(
            f"You sent {REQUESTS_PER_HOUR} friend requests this hour; try again later."
        )
    try:
        with transaction.atomic():
            created = Friendship.objects.create(from_user=user, to_user=other)
    except IntegrityError:
        raise FriendRefused(f"You already asked {other.username}.") from None
    announce(friend_asked, user, other, created.pk)
    return False


@transaction.atomic
def accept(user: User, other: User | None) -> None:
    """Accept the other person's friend request."""
    other = check_person(user, other, "accept")
    asked = Friendship.objects.filter(from_user=other, to_user=user, accepted=False)
    request = asked.values_list("pk", flat=True).first()
    if request is None or not asked.filter(pk=request).update(accepted=True):
        raise FriendRefused(f"{other.username} has not asked to be your friend.")
    announce(friend_accepted, user, other, request)


@transaction.atomic
def decline(user: User, other: User | None) -> None:
    """Say no to the other person's friend request (they may ask again later)."""
    other = check_person(user, other, "decline")
    deleted, _ = Friendship.objects.filter(from_user=other, to_user=user, accepted=False).delete()
    if not deleted:
        raise FriendRefused(f"{other.username} has not asked to be your friend.")


@transaction.atomic
def remove(user: User, other: User | None) -> None:
    """End a friendship, or take back a request not yet answered."""
    other = check_person(user, other, "unfriend")
    mine = Q(accepted=True) | Q(from_user=user)
    deleted, _ = Friendship.objects.filter(pair(user, other)).filter(mine).delete()
    if not deleted:
        raise FriendRefused(f"You and {other.username} are not friends.")


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
    transaction.on_commit(lambda: friend_blocked.send(Friendship, by=by, to=to, requests=requests))


@transaction.atomic
def unblock(user: User, other: User | None) -> None:
    """Stop blocking the other person (no friendship comes back by itself)."""
    other = check_person(user, other, "unblock")
    deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
    if not deleted:
        raise FriendRefused(f"You do not block {other.username}.")


def blocks_among(user: User, others: set[int]) -> tuple[bool, bool]:
    """Whether someone of the others blocks this person, and whether this person blocks one."""
    rows = Block.objects.filter(
        Q(blocker_id__in=others, blocked=user) | Q(blocker=user, blocked_id__in=others)
    ).values_list("blocker_id", flat=True)
    blockers = set(rows)
    return bool(blockers - {user.pk}), user.pk in blockers


@dataclass(frozen=True)
class KeptOut:
    """Whom a block keeps from sitting with some people: those one of them blocks, and those
    who block one of them (as block_at_table refuses them, in its order)."""

    blocked: frozenset[int] = frozenset()
    blocking: frozenset[int] = frozenset()

    def why(self, user_id: int) -> str:
        """Why this person may not sit with them: "blocked", "blocking", or "" (they may)."""
        if user_id in self.blocked:
            return "blocked"
        if user_id in self.blocking:
            return "blocking"
        return ""


def kept_out(seated: set[int]) -> KeptOut:
    """Everyone a block keeps from sitting with these people (one query for all, whoever asks)."""
    rows = Block.objects.filter(Q(blocker_id__in=seated) | Q(blocked_id__in=seated))
    pairs = list(rows.values_list("blocker_id", "blocked_id"))
    return KeptOut(
        blocked=frozenset(b for a, b in pairs if a in seated),
        blocking=frozenset(a for a, b in pairs if b in seated),
    )


def block_at_table(user: User, seated: set[int]) -> str:
    """Why a block keeps this person from sitting with these people ("" when none does)."""
    blocked, blocking = blocks_among(user, seated)
    return block_words(bool(blocked), bool(blocking))


def block_words(blocked: bool, blocking: bool) -> str:
    """Why a person may not sit with others: someone there blocks them (`blocked`), or they
    block someone there (`blocking`); "" when neither."""
    if blocked:
        return "This table is not available to you."
    if blocking:
        return "You block someone at this table: unblock them to sit here."
    return ""


def forget(person: User) -> None:
    """Every friendship, request and block of the person, theirs and of them (account deleted)."""
    Friendship.objects.filter(Q(from_user=person) | Q(to_user=person)).delete()
    Block.objects.filter(Q(blocker=person) | Q(blocked=person)).delete()
