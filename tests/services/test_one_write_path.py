"""One write path: a person's move, a bot's and a stand-in's are each made by move_log.make_move
(games/services/move_log.py), so a table that moved on meanwhile refuses all three alike."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games import services
from games.models import Action, Game
from games.services import move_log
from games.services.base import load_state, seats_in_order
from games.services.bots import store_bot_move
from games.services.clocks.stand_in import store_stand_in
from games.services.move_log import Made, Mover
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db(transaction=True)

FAST = 20.0 + 60.0  # the fast pace's move and bank: a person's whole time


def table_of(host: User, others: Callable[[Game], object], pace: str = "fast") -> Game:
    game = services.create_game(host, "midnight-bakery", 2, pace=pace)
    others(game)
    services.start(game, host)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def movers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Who each move made through make_move was made by (Person, Bot, StandIn), in order."""
    made: list[str] = []
    real = move_log.make_move

    def spy(mover: Mover) -> Made | None:
        made.append(type(mover).__name__)
        return real(mover)

    monkeypatch.setattr(move_log, "make_move", spy)
    return made


def test_a_persons_move_is_made_by_make_move(movers: list[str], player: User, rival: User) -> None:
    game = table_of(player, lambda game: services.join(game, rival))
    seat = next(s for s in seats_in_order(game) if s.user_id == player.pk)
    assert seat.position is not None
    legal = game.spec.engine.legal_actions(load_state(game), seat.position)
    services.play(game, player, legal[0], game.version)
    assert movers == ["Person"]
    assert Action.objects.filter(game=game, user=player, bot="").count() == 1


def test_a_bots_move_is_made_by_make_move(movers: list[str], player: User) -> None:
    game = table_of(player, lambda game: services.add_bot(game, player, "greedy"))
    # Midnight Bakery's first pick is everyone's at once: the bot has made it (inline here).
    assert movers == ["Bot"]
    assert Action.objects.filter(game=game, bot="greedy").count() == 1


def test_a_stand_ins_move_is_made_by_make_move(
    movers: list[str], clock: Clock, player: User, rival: User
) -> None:
    game = table_of(player, lambda game: services.join(game, rival))
    clock.forward(FAST)
    assert services.bot_step(game.pk) is services.Step.STORED
    assert movers == ["StandIn"]
    assert Action.objects.filter(game=game, bot=services.STAND_IN).exists()


def test_a_move_chosen_on_an_older_table_is_never_written_whoever_makes_it(
    clock: Clock, player: User, rival: User
) -> None:
    game = table_of(player, lambda game: services.join(game, rival))
    old_game = Game.objects.get(pk=game.pk)
    old_state, old_seats = load_state(old_game), seats_in_order(old_game)
    late = next(s for s in old_seats if s.user_id == rival.pk)
    first = next(s for s in old_seats if s.user_id == player.pk)
    assert late.position is not None and first.position is not None
    legal = game.spec.engine.legal_actions(old_state, late.position)
    mine = game.spec.engine.legal_actions(old_state, first.position)
    services.play(game, player, mine[0], game.version)  # the table moves on
    written = Action.objects.count()

    with pytest.raises(services.StaleVersion):  # a person: told to look again (no moment sent)
        services.play(old_game.pk, rival, legal[0], old_game.version)
    clock.forward(FAST)
    assert not store_stand_in(old_game, old_state, old_seats, late, legal[0])  # a stand-in
    # A bot that thought on the same older table (dressed as the rival's seat): passed over too.
    late.bot = "greedy"
    assert not store_bot_move(old_game, old_state, old_seats, late, legal[0])

    assert Action.objects.count() == written
    assert Game.objects.get(pk=game.pk).version == old_game.version + 1
