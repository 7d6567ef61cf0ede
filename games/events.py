"""What the games tell the rest of the site: every event, declared here once.

An event is a Django Signal with its arguments typed: the services send one once their change
commits (games/services/base.py: commit_version says which follow a new version), never knowing
who listens; games/wiring.py connects every receiver, in one place, so the services never import
the live path, the boards or the notifications that hear them.

After a change to a table (each sent with the Game model as sender, in this order):
- `stored`: the table as just saved (game, seats, state), for this process's sockets;
- `turn_came`: it became these people's move at a turn-based table;
- `game_ended`: the game finished (not aborted);
- `bots_due`: a bot may have to act, or a clock to be timed.
Outside a move:
- `rematch_offered`: a rematch was offered (game_id is the new table);
- `invited`: a person (or several) was invited to a table;
- `account_deleted`: sent inside an account deletion's transaction (not after it), so what a
  feature keeps of the person goes with the deletion, and a receiver that fails rolls it back.
Between people (games/friends/services.py, once the change commits):
- `friend_asked`, `friend_accepted`: a friend request sent, or accepted;
- `friend_blocked`: a block ended these requests or this friendship.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, Protocol, TypeVar

from django.dispatch import Signal

from accounts.models import Friendship, User
from games.models import Game, Seat

R = TypeVar("R", bound=Callable[..., None])


class Event(Signal, Generic[R]):
    """A Signal whose receivers take the event's arguments, typed by R (a Protocol below):
    connected by `hear`, sent by each event's own `tell`."""

    def hear(self, receiver: R, uid: str) -> None:
        """Connect a receiver (games/wiring.py)."""
        self.connect(receiver, dispatch_uid=uid)


class HearsStored(Protocol):
    def __call__(
        self, sender: object, *, game: Game, seats: list[Seat], state: object, **kwargs: object
    ) -> None: ...


class Stored(Event[HearsStored]):
    """A change stored a table's state: the game row, its seats (users read) and the engine
    state exactly as saved, so this process's sockets need not read back what it just wrote."""

    def tell(self, game: Game, seats: list[Seat], state: object) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game=game, seats=seats, state=state)


class HearsGameEvent(Protocol):
    def __call__(self, sender: object, *, game_id: int, **kwargs: object) -> None: ...


class GameEvent(Event[HearsGameEvent]):
    """Something happened at a table, named by the game's id alone."""

    def tell(self, game_id: int) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game_id=game_id)


class HearsTurnCame(Protocol):
    def __call__(
        self, sender: object, *, game_id: int, user_ids: Iterable[int], **kwargs: object
    ) -> None: ...


class TurnCame(Event[HearsTurnCame]):
    """It became these people's move at a turn-based table (`user_ids`); `by`, if given, made
    the move that brought it round."""

    def tell(self, game_id: int, user_ids: list[int]) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game_id=game_id, user_ids=user_ids)


class HearsRematchOffered(Protocol):
    def __call__(self, sender: object, *, game_id: int, by: int, **kwargs: object) -> None: ...


class RematchOffered(Event[HearsRematchOffered]):
    """Person `by` offered a rematch; `game_id` is the new table."""

    def tell(self, game_id: int, by: int) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game_id=game_id, by=by)


class HearsInvited(Protocol):
    def __call__(
        self,
        sender: object,
        *,
        game_id: int,
        by: int,
        to: int | Iterable[int],
        **kwargs: object,
    ) -> None: ...


class Invited(Event[HearsInvited]):
    """Person `by` invited `to` (a user id, or several) to the table."""

    def tell(self, game_id: int, by: int, to: int | Iterable[int]) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game_id=game_id, by=by, to=to)


class HearsAccountDeleted(Protocol):
    def __call__(
        self, sender: object, *, person: User, old_name: str, **kwargs: object
    ) -> None: ...


class AccountDeleted(Event[HearsAccountDeleted]):
    """A person's account is being deleted: `person` (the row, already renamed) and `old_name`.
    Sent inside the deletion's transaction (games/services/deletion.py)."""

    def tell(self, person: User, old_name: str) -> None:
        """Send it now, inside the deletion's transaction."""
        self.send(User, person=person, old_name=old_name)


class HearsFriendChanged(Protocol):
    def __call__(
        self, sender: object, *, by: int, to: int, request: int, **kwargs: object
    ) -> None: ...


class FriendChanged(Event[HearsFriendChanged]):
    """Person `by` asked `to` to be friends (friend_asked), or accepted the request `to` sent
    (friend_accepted); `request` is the Friendship row's id."""

    def tell(self, by: int, to: int, request: int) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Friendship, by=by, to=to, request=request)


class HearsFriendBlocked(Protocol):
    def __call__(
        self, sender: object, *, by: int, to: int, requests: list[int], **kwargs: object
    ) -> None: ...


class FriendBlocked(Event[HearsFriendBlocked]):
    """Person `by` blocked `to`; `requests` are the ids of the Friendship rows the block ended."""

    def tell(self, by: int, to: int, requests: list[int]) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Friendship, by=by, to=to, requests=requests)


stored = Stored()
turn_came = TurnCame()
game_ended = GameEvent()
"""The game finished (OVER; an aborted game is not ended this way)."""
bots_due = GameEvent()
"""A committed change may leave a bot to act, or a person's clock running: the runner looks."""
rematch_offered = RematchOffered()
invited = Invited()
account_deleted = AccountDeleted()
friend_asked = FriendChanged()
friend_accepted = FriendChanged()
friend_blocked = FriendBlocked()
