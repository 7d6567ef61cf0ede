"""Issue 12: with several Daphne processes, exactly one acts on each move deadline.

Two real Daphne processes share the test's PostgreSQL database and Redis, each with its worker's
sweep waking due deadlines every 0.1 s, so both find every deadline due. Nobody at the table
moves: stand-ins play until a bot takes each seat. Each deadline must give one stand-in move,
never two (games/services/clocks/stand_in.py: store_stand_in re-checks under the row lock).
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from django.conf import settings as django_settings

from accounts.models import User
from games import services
from games.models import Action, Game, Seat
from tests.conftest import needs_env, own_prefix
from tests.support.daphnes import daphnes

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]

# A fast pace is 20 s a move and a 60 s bank: here 1 s and 3 s, so a seat's three stand-ins come
# about 4 s, 5 s and 6 s after the start.
PACE_SCALE = 0.05
SWEEP = 0.1
OVERALL = 45.0  # seconds the test waits for both seats to be handed to bots, at most


def fast_night(people: list[User]) -> Game:
    game = services.create_game(people[0], "midnight-bakery", len(people), pace="fast")
    for user in people[1:]:
        services.join(game, user)
    services.start(game, people[0])
    return Game.objects.get(pk=game.pk)


def handed_over(game: Game) -> bool:
    seats = Seat.objects.filter(game=game, user__isnull=False)
    return all(seat.handed_over == services.ABSENT for seat in seats)


def test_two_daphne_processes_act_once_on_each_deadline(
    settings: Any, player: User, rival: User
) -> None:
    settings.PACE_SCALE = PACE_SCALE  # the first deadlines are set here, by services.start
    prefix = own_prefix("deadlines")
    extra = {"PACE_SCALE": str(PACE_SCALE), "BOT_SWEEP_SECONDS": str(SWEEP)}
    with daphnes(2, os.environ["REDIS_URL"], prefix, **extra) as site:
        assert all(process.poll() is None for process in site.daphnes)
        game = fast_night([player, rival])
        start = game.version
        deadline = time.monotonic() + OVERALL
        while not handed_over(game):
            assert time.monotonic() < deadline, "the stand-ins never handed both seats to bots"
            time.sleep(0.1)
        # Both processes were alive all along: each could have acted on every deadline.
        assert all(process.poll() is None for process in site.daphnes)
        # Neither lost a race by an error: without the row lock, a doubled stand-in is refused
        # only by the unique seq, as an IntegrityError in the loser's log.
        for log in sorted(site.folder.glob("daphne-*.log")):
            assert "Traceback" not in log.read_text(errors="replace"), log.name
    # The processes are stopped: the table no longer changes under the checks.
    game.refresh_from_db()
    rows = list(game.actions.order_by("seq").values_list("seq", "user_id", "bot"))
    assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1))
    assert game.moves == len(rows)
    for user in (player, rival):
        stood_in = [seq for seq, who, bot in rows if who == user.pk and bot == services.STAND_IN]
        assert len(stood_in) == django_settings.STAND_INS_BEFORE_BOT, (user.username, rows)
        seat = game.seats.get(user=user)
        assert seat.bot == game.spec.house_bot
        assert seat.stand_ins == 0  # reset by the hand-over
    # Every stored move is one step from the last: no move was applied on an older table.
    assert game.spec.engine.dump(services.replay(game)) == game.snapshot
    # Each store bumped the version once, and a stand-in's or a bot's turn is one row here.
    assert game.version - start == len(rows)
    assert not Action.objects.filter(game=game, user=None, bot=services.STAND_IN).exists()
