"""What every service shares: refusals, the row lock, versions and announcements."""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection, transaction
from django.dispatch import Signal

from accounts.models import User
from games.groups import group_name, send_to_group
from games.models import Game, Seat
from games.services import rows

logger = logging.getLogger(__name__)


class ServiceError(Exception):
    """A refused request; the message is a sentence a player can read."""

    status = 400


class NotAllowed(ServiceError):
    """The user may not do this at this table."""

    status = 403


class StaleVersion(ServiceError):
    """The page showed an older version of the table than the one stored."""

    status = 409


def announce(game_id: int, version: int) -> None:
    """Tell the table's sockets there is a new version (never a state, never a card)."""
    send_to_group(group_name(game_id), {"type": "game.updated", "version": version})


# Sent once a change that may leave a bot to act (or a clock to run) is committed, with the game's
# id: the live path's runner (games.live.runner) listens, so the services never import it.
bots_due = Signal()


# Sent once a move's transaction commits, with the game row, its seats (their users read) and
# the engine state exactly as stored: games.boards.shared keeps them for this process's sockets,
# which then need not read back what this process just wrote.
stored = Signal()


# What people are told outside the table (games/notifications/receivers.py listens; the services
# never import it). Each is sent once its transaction commits, with the game's id:
# - turn_came: user_ids, the people whose move it became at a turn-based table;
# - game_ended: the game finished (not aborted);
# - rematch_offered: by (the user id who offered), the new table's id as game_id;
# - invited: by and to (user ids), an invitation to the table.
turn_came = Signal()
game_ended = Signal()
rematch_offered = Signal()
invited = Signal()

# Sent inside an account deletion's transaction (games/services/deletion.py), with the person (the
# row renamed) and old_name: what the features keep of them goes with the deletion (the
# notifications and browser pushes, games/notifications/receivers.py).
account_deleted = Signal()


def hand_to_sockets(game: Game, seats: list[Seat], state: Any) -> None:
    """Once committed, send `stored` with this game as it then is (call before bump, so the
    sockets here have it before the announcement reaches them)."""
    transaction.on_commit(lambda: stored.send(Game, game=game, seats=seats, state=state))


def bump(game: Game, fields: list[str]) -> None:
    """Save the changed fields with a new version, announced once the transaction commits."""
    game.version += 1
    game.save(update_fields=[*fields, "version"])
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: announce(game_id, version))


NOTICES_KEPT = 8


def notice(game: Game, text: str) -> None:
    """Add a public notice to the table (saved by the caller's bump with "notices")."""
    game.notices = [*game.notices, {"text": text}][-NOTICES_KEPT:]


UNSTARTED = "unstarted"  # marks the notice of a table the sweep closed (tables.close_unstarted)


def closed_unstarted(game: Game) -> str:
    """Why the sweep closed this table, nobody having started it in time ("" if it did not)."""
    if game.status != Game.Status.CANCELLED:
        return ""
    return next((n["text"] for n in game.notices if n.get(UNSTARTED)), "")


def closed_reason(game: Game) -> str:
    """Why a table that is no longer open refuses seats and lobby changes."""
    if game.status == Game.Status.ABORTED:
        return f"A moderator stopped this game: {game.abort_sentence}"
    if closed_unstarted(game):
        return closed_unstarted(game)
    return {
        Game.Status.RUNNING: "This table has already started.",
        Game.Status.OVER: "This game is over.",
        Game.Status.CANCELLED: "The host cancelled this table.",
    }.get(Game.Status(game.status), "This table is not open.")


# Lock order, everywhere: a person's user row first, then game rows (the older game first
# when one service locks two). Deactivation, reactivation, a report and a chat line lock the
# person (lock_user) before any game; no game service locks a person's row after its game (a
# house bot's row, saved when it is seated, is never locked by those). With two orders, a report
# (game, then reporter) and the reporter's deactivation (user, then their games) could each
# hold the row the other waits for. The user row is locked FOR NO KEY UPDATE on PostgreSQL, so
# a seat, report or chat line that points at the person, written under a game lock, is not
# held up by it either.
def lock(game: Game | int) -> Game:
    """The game row, locked until the transaction ends (outside one, refused on every database
    as the ORM refuses it where rows can be locked: on SQLite too, so its tests catch it)."""
    if transaction.get_autocommit():
        raise transaction.TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    pk = game if isinstance(game, int) else game.pk
    return rows.locked_game(pk)


def lock_user(user: User | int) -> User:
    """The person's row, locked until the transaction ends (before any game row)."""
    pk = user if isinstance(user, int) else user.pk
    no_key = connection.features.has_select_for_no_key_update
    return User.objects.select_for_update(no_key=no_key).get(pk=pk)


def lock_with_seats(game: Game | int) -> tuple[Game, list[Seat]]:
    """The game row locked until the transaction ends, and its seats in order as read once the
    lock is held (lock, then seats_in_order: two queries, the seats read after the lock is
    granted, so as fresh as whoever held it left them)."""
    locked = lock(game)
    return locked, seats_in_order(locked)


def seats_in_order(game: Game) -> list[Seat]:
    """The seats with their users, in seat order (joining order before the start), each
    pointing at this game row (in plain SQL: games/services/rows.py)."""
    return rows.seats_of(game)


def load_state(game: Game) -> Any:
    """The engine state of a started game, from its snapshot."""
    if game.snapshot is None:
        raise ServiceError("This game has not started yet.")
    return game.spec.engine.load(game.snapshot)
