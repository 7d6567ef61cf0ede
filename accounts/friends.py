"""How people stand to each other: friends, friend requests and blocks, as the tables read them.

The rows (Friendship, Block: accounts/models.py) are changed only by the friends' feature,
games/friends/services.py (ask, accept, decline, remove, block, unblock), which tells what it
changed through the games' typed events. Here are the reads the rest of the site needs below
it: who is friends with whom, who blocks whom, whom a block keeps from a table; and `forget`,
for an account deleted. A block keeps the blocked person from sending requests and invitations,
from sitting at the blocker's tables and from being seen in the blocker's chat; it ends any
friendship. (accounts imports no game code.)
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext

from accounts.models import Block, Friendship, User


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
        return gettext("This table is not available to you.")
    if blocking:
        return gettext("You block someone at this table: unblock them to sit here.")
    return ""


def forget(person: User) -> None:
    """Every friendship, request and block of the person, theirs and of them (account deleted)."""
    Friendship.objects.filter(Q(from_user=person) | Q(to_user=person)).delete()
    Block.objects.filter(Q(blocker=person) | Q(blocked=person)).delete()
