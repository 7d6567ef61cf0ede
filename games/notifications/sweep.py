"""The notifications' sweeps, which the worker (games/live/runner.py) schedules: the turns a lost
signal missed (in each upkeep), the mails (on the runner's mail lane) and the browser pushes (on
its push lane): a slow push service never holds a mail, nor a slow mail server a push."""

from __future__ import annotations

from games.models import TURN_BASED, Game, Seat
from games.notifications import mail, push
from games.notifications.services import settle_turns, tell_turn, waiting_on

LOOKED: dict[int, int] = {}
"""The version of each running turn-based table at this process's last look."""


def sweep_turns() -> None:
    """Tell the people whose move it is at turn-based tables that changed since the last look."""
    running = Game.objects.filter(status=Game.Status.RUNNING, pace__in=TURN_BASED)
    versions = dict(running.values_list("pk", "version"))
    for game in running.filter(pk__in=[g for g, v in versions.items() if LOOKED.get(g) != v]):
        state = game.spec.engine.load(game.snapshot)
        waiting = waiting_on(game, Seat.objects.filter(game=game), state)
        settle_turns(game, waiting)  # a bot or a stand-in may have ended a turn
        tell_turn(game, waiting)
        LOOKED[game.pk] = game.version
    for gone in set(LOOKED) - set(versions):
        del LOOKED[gone]


def send_mails() -> None:
    """The mails due (the worker runs this on a thread of its own: a slow mail server must not
    hold its sweep; the pushes have a lane of their own, send_pushes)."""
    mail.sweep_mail()


def send_pushes() -> None:
    """The browser pushes due (on the worker's push lane)."""
    push.sweep_push()


def sweep() -> None:
    """Everything at once: turns a lost signal missed, then the mails and pushes due."""
    sweep_turns()
    send_mails()
    send_pushes()
