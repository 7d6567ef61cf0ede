"""What every service shares: refusals, the row lock, and the one way a table's new version is
stored and what follows its commit (commit_version)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import gettext

from accounts.models import User
from games import events
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
    events.new_version.tell(game_id, version)


@dataclass(frozen=True)
class Moved:
    """What a stored move (or the deal) leaves to tell once committed (move_log.record says)."""

    turn_came: tuple[int, ...] = ()
    """The people whose move came at a turn-based table (their clocks started)."""
    ended: bool = False
    """The game finished."""


NOTHING_MOVED = Moved()


def commit_version(
    game: Game,
    fields: Iterable[str],
    *,
    seats: list[Seat] | None = None,
    state: object = None,
    moved: Moved = NOTHING_MOVED,
    bots: bool = False,
) -> None:
    """Save the table's changed fields with its next version. Every change to a table is stored
    through here: a person's move, a bot's, a stand-in's, the deal, a seat handed over or taken
    back, a join, a close.

    What follows once the transaction commits, in this order (follow_commit):
    1. `stored`: this process's sockets are handed the table as saved (given `seats` with the
       `state`: every move, a person's, a bot's and a stand-in's), so they push without reading
       it back; other processes read it once per version;
    2. `announce`: the table's group hears the new version, in every process;
    3. `turn_came`: the people whose move came at a turn-based table are told (`moved`);
    4. `game_ended`: the game finished (`moved`);
    5. `bots_due` (given `bots`): this process's runner looks for a bot to move or a clock to
       time. In inline mode (BOT_MOVES = "inline": commands, tests) the verb runs the bots itself
       once its transaction is over (autoplay.inline_bots).
    """
    game.version += 1
    game.save(update_fields=[*fields, "version"])
    game_id, version = game.pk, game.version
    table = None if seats is None else (game, seats, state)
    transaction.on_commit(lambda: follow_commit(game_id, version, table, moved, bots))


def follow_commit(
    game_id: int,
    version: int,
    table: tuple[Game, list[Seat], object] | None,
    moved: Moved,
    bots: bool,
) -> None:
    """What follows a new version's commit (commit_version says why, in this order)."""
    if table is not None:
        events.stored.tell(*table)
    announce(game_id, version)
    if moved.turn_came:
        events.turn_came.tell(game_id, list(moved.turn_came))
    if moved.ended:
        events.game_ended.tell(game_id)
        events.game_finished.tell(game_id, people_at(game_id, table))
    if bots and settings.BOT_MOVES != "inline":
        events.bots_due.tell(game_id)


def people_at(game_id: int, table: tuple[Game, list[Seat], object] | None) -> list[int]:
    """The people seated at the table, those who resigned too (not the house bots' accounts):
    from the seats just stored when at hand (their users read), else read."""
    if table is not None:
        return [s.user_id for s in table[1] if not s.user.is_bot]
    seats = Seat.objects.filter(game_id=game_id, user__is_bot=False)
    return sorted(seats.values_list("user_id", flat=True))


NOTICES_KEPT = 8


def notice(game: Game, says: str, values: Mapping[str, str] | None = None, mark: str = "") -> None:
    """Add a public notice to the table (saved by the caller's commit_version with "notices").

    `says` is the sentence's English msgid, marked with N_ where it is written, `values` its named
    values (`%(name)s`): the notice is kept as both, and each reader is told it in their own
    language (notice_words), never frozen in the language of whoever's move wrote it. "text"
    keeps the English as well, for notices read as they were (and ones stored before). `mark`,
    a key set true to find the notice again (UNSTARTED)."""
    values = dict(values or {})
    entry: dict[str, object] = {"text": says % values, "says": says, "with": values}
    if mark:
        entry[mark] = True
    game.notices = [*game.notices, entry][-NOTICES_KEPT:]


def notice_words(entry: Mapping[str, object]) -> str:
    """A stored notice in the language active: its msgid translated with its values, or the
    text as stored (a notice from before msgids were kept)."""
    says, values = entry.get("says"), entry.get("with")
    if isinstance(says, str) and isinstance(values, dict):
        return gettext(says) % values
    return str(entry.get("text", ""))


UNSTARTED = "unstarted"  # marks the notice of a table the sweep closed (tables.close_unstarted)


def closed_unstarted(game: Game) -> str:
    """Why the sweep closed this table, nobody having started it in time ("" if it did not)."""
    if game.status != Game.Status.CANCELLED:
        return ""
    return next((notice_words(n) for n in game.notices if n.get(UNSTARTED)), "")


def closed_reason(game: Game) -> str:
    """Why a table that is no longer open refuses seats and lobby changes."""
    if game.status == Game.Status.ABORTED:
        return gettext("A moderator stopped this game: %(why)s") % {"why": game.abort_sentence}
    if closed_unstarted(game):
        return closed_unstarted(game)
    return {
        Game.Status.RUNNING: gettext("This table has already started."),
        Game.Status.OVER: gettext("This game is over."),
        Game.Status.CANCELLED: gettext("The host cancelled this table."),
    }.get(Game.Status(game.status), gettext("This table is not open."))


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


def load_state(game: Game) -> object:
    """The engine state of a started game, from its snapshot."""
    if game.snapshot is None:
        raise ServiceError(gettext("This game has not started yet."))
    return game.spec.engine.load(game.snapshot)
