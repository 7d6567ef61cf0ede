"""Every move commits its version one way (games/services/base.py: commit_version): a bot's and a
stand-in's move hand the table as saved to this process's sockets (the `stored` event), as a
person's move does, and the table's group hears each new version."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from accounts.models import User
from games import events, services
from games.models import Action, Game, Seat
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db

FAST = 20.0 + 60.0  # a fast table's move and bank


@contextmanager
def stored_tables(callbacks: Callable[..., Any]) -> Iterator[list[tuple[int, str, bool]]]:
    """What the moves made inside hand to this process's sockets once committed: for each, the
    version, who made its last move ("" a person, else the bot's name), and whether its seats
    point at the game row as saved."""
    told: list[tuple[int, str, bool]] = []

    def listen(sender: Any, game: Game, seats: list[Seat], state: Any, **kwargs: Any) -> None:
        last = Action.objects.get(game_id=game.pk, seq=game.moves)
        told.append((game.version, last.bot, all(seat.game is game for seat in seats)))

    events.stored.hear(listen, "tests.after_a_move")
    try:
        with callbacks(execute=True):
            yield told
    finally:
        events.stored.disconnect(dispatch_uid="tests.after_a_move")


def first_choice(game: Game, user: User) -> dict[str, Any]:
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    choice: dict[str, Any] = engine.legal_actions(engine.load(game.snapshot), position)[0]
    return choice


def test_a_bots_move_hands_the_saved_table_to_the_sockets_as_a_persons_does(
    django_capture_on_commit_callbacks: Callable[..., Any], player: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 2)
    services.add_bot(game, player, "greedy")
    services.start(game, player)  # the bot picks at once (inline)
    game.refresh_from_db()
    with stored_tables(django_capture_on_commit_callbacks) as told:
        services.play(game, player, first_choice(game, player), game.version)
    bots = [(version, whole) for version, bot, whole in told if bot == "greedy"]
    people = [(version, whole) for version, bot, whole in told if bot == ""]
    assert bots and people
    assert all(whole for _, _, whole in told)
    assert [version for version, _, _ in told] == sorted({version for version, _, _ in told})


def test_a_stand_ins_move_hands_the_saved_table_to_the_sockets(
    django_capture_on_commit_callbacks: Callable[..., Any],
    clock: Clock,
    player: User,
    rival: User,
) -> None:
    game = services.create_game(player, "midnight-bakery", 2, pace="fast")
    services.join(game, rival)
    services.start(game, player)
    clock.forward(FAST)
    with stored_tables(django_capture_on_commit_callbacks) as told:
        assert services.run_bots(game.pk) >= 1
    assert told and {bot for _, bot, _ in told} == {services.STAND_IN}
    assert all(whole for _, _, whole in told)
