"""Leaving a running game: a person resigns, or their seat is handed to a house bot by others
(a moderator's deactivation, an account deleted, a tournament's withdrawal); the bots answer
once it is committed. The hand-over itself and its reasons: handover.py.
"""

from __future__ import annotations

from accounts.models import User
from games.models import Game, Seat
from games.services.autoplay import inline_bots
from games.services.handover import DEACTIVATED, do_hand_seat_to_bot, do_resign


def hand_seat_to_bot(game: Game | int, seat: Seat | int, reason: str) -> Game:
    """A house bot plays a person's seat to the end (left, absent, deactivated): placed last.

    The others are told; the bot moves after the commit. A moderator's deactivation calls this
    for each running game of the account (hand_all_seats_to_bots).
    """
    game = do_hand_seat_to_bot(game, seat, reason)
    inline_bots(game.pk)
    return game


def hand_all_seats_to_bots(user: User, reason: str = DEACTIVATED) -> list[int]:
    """Every running game where the person still plays: a bot takes over; the games' ids."""
    running = Seat.objects.filter(user=user, game__status=Game.Status.RUNNING, bot="")
    done = []
    for seat in running.exclude(position=None):
        hand_seat_to_bot(seat.game_id, seat.pk, reason)
        done.append(seat.game_id)
    return done


def resign(game: Game | int, user: User) -> Game:
    """Leave a running game: a house bot plays the seat to the end, which counts as last place."""
    game = do_resign(game, user)
    inline_bots(game.pk)
    return game
