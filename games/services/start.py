"""The host starts a table: a new one is dealt as its seats stand, a rematch by its yeses."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.models import Game
from games.services.autoplay import inline_bots
from games.services.base import lock
from games.services.dealing import deal
from games.services.rematch import start_rematch
from games.services.tables import check_start


def start(game: Game | int, user: User) -> Game:
    """Draw the seats and deal the game; the bots make their first moves after the commit."""
    game = do_start(game, user)
    inline_bots(game.pk)
    return game


@transaction.atomic
def do_start(game: Game | int, user: User) -> Game:
    """Draw the seats and deal the game in one transaction; the deal and the rules version are
    stored with it, so its replays never depend on how a seed deals tomorrow."""
    pk = game if isinstance(game, int) else game.pk
    finished = Game.objects.filter(pk=pk).values_list("rematch_of_id", flat=True).first()
    old = lock(finished) if finished is not None else None  # the rematch services' lock order
    game = lock(pk)
    if old is not None:
        start_rematch(old, game, user)
    else:
        deal(game, check_start(game, user))
    return game
