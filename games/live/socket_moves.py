"""Moves sent on a table's socket: made as if posted (games/services/moves.py), and answered on
the same socket with what changed for this viewer, or the words why a move was refused."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar, cast

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext

from accounts.models import User
from games import outages
from games.boards import board_message
from games.engines import IllegalAction
from games.live.protocol import move_made
from games.live.pushes import Push, Shown, pushed
from games.live.sessions import SESSION_ENDED, SocketSession
from games.models import Game
from games.services import ServiceError
from games.services.moves import close_posted, play_posted

logger = logging.getLogger(__name__)
R = TypeVar("R")


@dataclass(frozen=True)
class Tap:
    """A form a page sent on its table's socket (a tap on the board), with who sent it and what
    the page showed: all that answering it reads."""

    game_id: int
    user: User | AnonymousUser
    session: SocketSession | None
    fields: dict[str, str]
    shown: Shown


def answered(tap: Tap, make: Callable[[], R], then: Callable[[R], Push], what: str) -> Push:
    """What a socket sends back for a form its page sent on it, made as if posted
    (games.services.moves): `then(make())` once made; refused, the words why and the board as
    stored, as a refused post answers, and nothing is changed."""
    session = tap.session
    if session is None:
        refusal = gettext("Log in to take a seat and play.")
    elif not session.alive():
        return Push(SESSION_ENDED)
    else:
        try:
            made = make()
        except (ServiceError, IllegalAction) as error:
            refusal = str(error)
        except outages.OUTAGE:
            raise  # told in words by the socket (Socket.dispatch, GameConsumer.away), boardless
        except Exception:  # its transaction rolled back: said as a failed post says it
            logger.exception("%s on the socket to game %s failed", what, tap.game_id)
            refusal = gettext("Something went wrong on our side; your tap was not taken.")
        else:
            return then(made)
    push = pushed(tap.game_id, tap.user, None, tap.shown, True)
    return replace(push, html=board_message(refusal) + push.html)


def played(tap: Tap) -> Push:
    """A move sent on the socket (see answered). Made, the answer is the version it made
    (#move-made) and this viewer's regions that changed, at once (the table's announcement
    follows for the other sockets)."""

    def made(game: Game) -> Push:
        push = pushed(tap.game_id, tap.user, None, tap.shown, False, game.version)
        return replace(push, html=move_made(game.version) + push.html)

    def play() -> Game:
        return play_posted(tap.game_id, cast(User, tap.user), tap.fields)  # a session's

    return answered(tap, play, made, "A move")


def results_closed(tap: Tap) -> Push:
    """Results closed on the socket (see answered): this viewer's regions that changed at the
    version the close made (the table's announcement brings it to the person's other tabs).
    Closed already, it is the whole board as stored (a push that never came is healed so)."""

    def closed(game: Game | None) -> Push:
        if game is None:
            return pushed(tap.game_id, tap.user, None, tap.shown, True)
        return pushed(tap.game_id, tap.user, None, tap.shown, False, game.version)

    def close() -> Game | None:
        return close_posted(tap.game_id, cast(User, tap.user), tap.fields)  # a session's

    return answered(tap, close, closed, "Closing results")
