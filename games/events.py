"""What the games tell the rest of the site: every event, declared here once.

An event is a Django Signal with its arguments typed: the services send one once their change
commits (games/services/base.py: commit_version says which follow a new version), never knowing
who listens; games/wiring.py connects every receiver, in one place, so the services never import
the live path, the boards or the notifications that hear them.

After a change to a table (each sent with the Game model as sender, in this order):
- `stored`: the table as just saved (game, seats, state), for this process's sockets;
- `game_started`: the table was dealt, these people sit in a game that began (told by the deal,
  services/dealing.py, once it commits);
- `turn_came`: it became these people's move at a turn-based table;
- `game_ended`: the game finished (not aborted); `game_finished`, the same with its people;
- `bots_due`: a bot may have to act, or a clock to be timed.
Outside a move:
- `rematch_offered`: a rematch was offered (game_id is the new table);
- `invited`: a person (or several) was invited to a table;
- `account_deleted`: sent inside an account deletion's transaction (not after it), so what a
  feature keeps of the person goes with the deletion, and a receiver that fails rolls it back.
Between people (games/friends/services.py, once the change commits):
- `friend_asked`, `friend_accepted`: a friend request sent, or accepted;
- `friend_blocked`: a block ended these requests or this friendship.
What open pages are told (the platform, games/groups.py, sends each to its sockets' channel
group; nothing else in the site sends to a group):
- `new_version`: a table stored a new version (commit_version, after `stored`);
- `presence_changed`: who is at a table changed (gathered, then told once);
- `chat_changed`: a table's chat changed, for everyone there or one person (who muted someone);
- `inbox_changed`: these people's notifications changed (their menu's unread badge);
- `seated`: a person was seated at a table (quick pairing, a tournament): their pages go there;
- `session_changed`: a person's account changed (a moderator, a deletion): their sockets
  re-check their session;
- `tournament_changed`, `tournament_chat_changed`: a tournament's version, or its chat;
- `review_progressed`: a review of a seat weighed one more decision, or ended (games/reviews/).
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


class PeopleAtTable(Event[HearsTurnCame]):
    """Something happened at a table to these people (`user_ids`)."""

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


class HearsNewVersion(Protocol):
    def __call__(self, sender: object, *, game_id: int, version: int, **kwargs: object) -> None: ...


class NewVersion(Event[HearsNewVersion]):
    """A table stored its version `version` (never a state, never a card)."""

    def tell(self, game_id: int, version: int) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game_id=game_id, version=version)


class HearsChatChanged(Protocol):
    def __call__(
        self, sender: object, *, game_id: int, user_id: int | None, **kwargs: object
    ) -> None: ...


class ChatChanged(Event[HearsChatChanged]):
    """A table's chat changed: for everyone at it (a line came, or was hidden), or for one
    person's sockets there (`user_id`: they muted or unmuted someone, or blocked them)."""

    def tell(self, game_id: int, user_id: int | None = None) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game_id=game_id, user_id=user_id)


class HearsPeople(Protocol):
    def __call__(self, sender: object, *, user_ids: list[int], **kwargs: object) -> None: ...


class PeopleEvent(Event[HearsPeople]):
    """Something changed for these people (`user_ids`)."""

    def tell(self, user_ids: Iterable[int]) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(User, user_ids=sorted(set(user_ids)))


class HearsSeated(Protocol):
    def __call__(self, sender: object, *, user_id: int, url: str, **kwargs: object) -> None: ...


class Seated(Event[HearsSeated]):
    """A person was seated at the table at `url` (quick pairing, a tournament's round): every
    open page of theirs goes there."""

    def tell(self, user_id: int, url: str) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(User, user_id=user_id, url=url)


class HearsTournament(Protocol):
    def __call__(
        self, sender: object, *, tournament_id: int, version: int | None, **kwargs: object
    ) -> None: ...


class TournamentEvent(Event[HearsTournament]):
    """A tournament changed: its new `version` (tournament_changed), or its chat (no version)."""

    def tell(self, tournament_id: int, version: int | None = None) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(None, tournament_id=tournament_id, version=version)


class HearsReview(Protocol):
    def __call__(self, sender: object, *, game_id: int, seat: int, **kwargs: object) -> None: ...


class ReviewEvent(Event[HearsReview]):
    """A review of one seat of a game moved: a decision more is weighed, or it ended."""

    def tell(self, game_id: int, seat: int) -> None:
        """Send it now (the caller runs once the change committed)."""
        self.send(Game, game_id=game_id, seat=seat)


stored = Stored()
turn_came = TurnCame()
game_started = PeopleAtTable()
"""A table was dealt: its people (not the house bots) were seated in a game that began."""
game_finished = PeopleAtTable()
"""The game finished (as game_ended), told with its people (not the house bots): their own
channel groups hear it (the API's event streams)."""
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
new_version = NewVersion()
presence_changed = GameEvent()
"""Who is at a table changed (a socket opened or closed, a person came back or went away)."""
chat_changed = ChatChanged()
inbox_changed = PeopleEvent()
"""These people's notifications changed: their open pages redraw the inbox badge."""
seated = Seated()
session_changed = PeopleEvent()
"""These people's accounts changed (a moderator, a deletion): their sockets re-check their
session, and close if it ended."""
tournament_changed = TournamentEvent()
tournament_chat_changed = TournamentEvent()
review_progressed = ReviewEvent()
