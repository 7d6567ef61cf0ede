"""The events that become notifications, heard once their change commits.

The games' events (games/events.py: turn_came, stored, game_ended, rematch_offered, invited,
account_deleted) and the friends' (friend_asked, friend_accepted, told by games/friends/: no game,
never between a blocked pair; and friend_blocked takes back what the pair was told). Each
receiver hands its event to services.py; games/wiring.py connects them, with every other one.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from typing import Any

from accounts.models import User
from games.models import Game, Seat
from games.notifications.badge import badges_changed
from games.notifications.models import Notification
from games.notifications.services import (
    Kind,
    forget,
    settle_turns,
    tell_ended,
    tell_friend,
    tell_invited,
    tell_rematch,
    tell_turn,
    waiting_on,
)

logger = logging.getLogger(__name__)


def the_game(game_id: int) -> Game | None:
    """The game, if it still exists."""
    return Game.objects.filter(pk=game_id).first()


Receiver = Callable[..., None]


def quietly(receiver_function: Receiver) -> Receiver:
    """A receiver whose failure is logged, never raised: it runs after the change committed, in
    the request or bot step that made it, which must not fail for a notification (the sweep
    tells a lost turn again)."""

    @functools.wraps(receiver_function)
    def run(*args: Any, **kwargs: object) -> None:
        try:
            receiver_function(*args, **kwargs)
        except Exception:
            logger.exception("A notification was not stored (%s)", receiver_function.__name__)

    return run


@quietly
def turn_came_here(
    sender: object, game_id: int, user_ids: Iterable[int], by: int | None = None, **kwargs: object
) -> None:
    """It became these people's move at a turn-based table."""
    game = the_game(game_id)
    if game is not None:
        tell_turn(game, user_ids, by)


@quietly
def stored_here(
    sender: object, game: Game, seats: list[Seat], state: object, **kwargs: object
) -> None:
    """A move was stored: the turns it ended are no longer news."""
    if game.turn_based:
        settle_turns(game, waiting_on(game, seats, state))


@quietly
def game_ended_here(sender: object, game_id: int, **kwargs: object) -> None:
    """A game finished."""
    game = the_game(game_id)
    if game is not None:
        tell_ended(game)


@quietly
def rematch_offered_here(sender: object, game_id: int, by: int, **kwargs: object) -> None:
    """A rematch was offered (game_id is the new table)."""
    game = the_game(game_id)
    if game is not None:
        tell_rematch(game, by)


@quietly
def invited_here(
    sender: object, game_id: int, by: int, to: int | Iterable[int], **kwargs: object
) -> None:
    """A person (or several) was invited to a table."""
    game = the_game(game_id)
    if game is not None:
        tell_invited(game, by, [to] if isinstance(to, int) else to)


@quietly
def friend_asked_here(sender: object, by: int, to: int, request: int, **kwargs: object) -> None:
    """Someone asked another person to be friends."""
    tell_friend("asked", by, to, request)


@quietly
def friend_accepted_here(sender: object, by: int, to: int, request: int, **kwargs: object) -> None:
    """Someone accepted another person's friend request."""
    tell_friend("accepted", by, to, request)


@quietly
def friend_blocked_here(
    sender: object, by: int, to: int, requests: Iterable[int], **kwargs: object
) -> None:
    """A block ended these requests or this friendship: what either was told of it goes."""
    keys = [f"friend:{kind}:{pk}" for pk in requests for kind in ("asked", "accepted")]
    told = Notification.objects.filter(kind=Kind.FRIEND, recipient_id__in=[by, to], key__in=keys)
    if told.delete()[0]:
        badges_changed([by, to])


def account_deleted_here(sender: object, person: User, old_name: str, **kwargs: object) -> None:
    """A person deleted their account, inside its transaction (not quietly: a failure here
    undoes the deletion): their notifications and browsers go, and others' name them no more."""
    forget(person, old_name)
