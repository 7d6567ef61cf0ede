"""`manage.py verify_games`: every finished game's export replays to its stored result, every
running table rebuilds to its stored snapshot with its clocks in order, and what fails is named
(games/records/audit.py, games/services/clocks/check.py). The drill that runs it on a restored
backup is tests/records/test_restore_drill.py."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import timedelta
from typing import Any, cast

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from accounts.models import User
from games import services
from games.models import Action, Game, Seat
from games.vacation.services import take_vacation
from tests.records.test_game_records import GOLDEN, stored_golden
from tests.support.clock import Clock

# backend: the games are read a chunk at a time through a server-side cursor on PostgreSQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def verify() -> str:
    """verify_games' whole output (CommandError when a game fails)."""
    out = io.StringIO()
    call_command("verify_games", stdout=out, stderr=out)
    return out.getvalue()


def failing(*labels: str) -> str:
    """verify_games' output, which must fail naming exactly these games."""
    out = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_games", stdout=out, stderr=out)
    message = str(failed.value)
    assert f"{len(labels)} of " in message, message
    for label in labels:
        assert label in message, message
    return out.getvalue()


def clocked_table(player: User, rival: User, pace: str = "normal") -> Game:
    """A running two-baker night with a clock where the player kept a pastry: the rival's clock
    runs, the player's stopped."""
    game = services.create_game(player, "midnight-bakery", 2, pace=pace)
    services.join(game, rival)
    services.start(game, player)
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=player).position
    keep = engine.legal_actions(engine.load(game.snapshot), position)[0]
    services.play(game, player, keep, game.version)
    game.refresh_from_db()
    return game


def seat_of(game: Game, user: User) -> Seat:
    return Seat.objects.get(game=game, user=user)


@pytest.fixture
def finished(make_user: Callable[[str], User]) -> list[Game]:
    """A finished game of each kind, stored as the site stores them."""
    games = []
    for n, name in enumerate(("midnight-bakery-3p-707", "cakehalla-3p-505")):

        def person(username: str, n: int = n) -> User:
            return make_user(f"{username}-{n}")  # each game its own people

        games.append(stored_golden(GOLDEN[name], person))
    return games


def test_finished_games_and_running_tables_in_order_pass(
    finished: list[Game], player: User, rival: User
) -> None:
    clocked_table(player, rival)
    output = verify()
    assert "2 of 2 finished games replay to their stored results" in output
    assert "1 of 1 running tables rebuild to their stored versions" in output
    assert "run out" not in output


def test_a_finished_games_changed_result_is_named(finished: list[Game]) -> None:
    cakehalla = finished[1]
    Seat.objects.filter(game=cakehalla, position=1).update(score=F("score") + 1)
    output = failing(f"game {cakehalla.pk} (cakehalla, finished)")
    assert "Seat 1" in output and "stored score" in output
    assert f"game {finished[0].pk} " not in output
    assert "1 of 2 finished games replay" in output


def test_a_finished_games_changed_action_is_named(finished: list[Game]) -> None:
    night = finished[0]
    Action.objects.filter(game=night, seq=2).update(payload={"type": "keep", "card": "nope"})
    output = failing(f"game {night.pk} (midnight-bakery, finished)")
    assert "refuse move 2" in output


def test_a_running_tables_snapshot_other_than_its_actions_is_named(
    player: User, rival: User
) -> None:
    game = clocked_table(player, rival)
    snapshot = dict(cast(dict[str, Any], game.snapshot))
    snapshot["rng"] = int(snapshot["rng"]) + 1
    Game.objects.filter(pk=game.pk).update(snapshot=snapshot)
    output = failing(f"game {game.pk} (midnight-bakery, running)")
    assert "Its snapshot is not the game its 1 actions rebuild." in output


def test_a_running_tables_lost_action_is_named(player: User, rival: User) -> None:
    game = clocked_table(player, rival)
    Action.objects.filter(game=game).delete()
    output = failing(f"game {game.pk} (midnight-bakery, running)")
    assert "It counts 1 moves but keeps 0 actions." in output
    assert "Its snapshot is not the game its 0 actions rebuild." in output


def test_a_clock_that_stopped_on_a_waited_seat_or_runs_on_another_is_named(
    player: User, rival: User
) -> None:
    game = clocked_table(player, rival)
    deadline = seat_of(game, rival).deadline
    assert deadline is not None and seat_of(game, player).deadline is None
    Seat.objects.filter(game=game, user=rival).update(deadline=None)
    Seat.objects.filter(game=game, user=player).update(deadline=deadline)
    output = failing(f"game {game.pk} (midnight-bakery, running)")
    assert "(bob): the game waits on its move, but its clock is not running." in output
    assert "(alice): its clock runs, but the game waits on no move of it." in output


def test_a_deadline_beyond_its_clock_or_a_bank_beyond_the_pace_is_named(
    player: User, rival: User
) -> None:
    game = clocked_table(player, rival)  # normal: 60 s a move, a 120 s bank
    seats = Seat.objects.filter(game=game)
    seats.filter(user=rival).update(deadline=F("deadline") + timedelta(hours=1))
    seats.filter(user=player).update(bank=121)
    output = failing(f"game {game.pk} (midnight-bakery, running)")
    assert "(bob): its deadline" in output and "further off than its clock allows" in output
    assert "(alice): a bank of 121 s, outside 0 to 120 s." in output


def test_a_clock_that_ran_out_passes_and_is_counted(
    player: User, rival: User, clock: Clock
) -> None:
    clocked_table(player, rival)
    clock.forward(181)  # past the rival's move time and whole bank
    output = verify()
    assert "1 of 1 running tables rebuild" in output
    assert "1 clocks have run out: stand-ins move once the site runs." in output


def test_a_turn_based_deadline_pushed_by_a_vacation_passes(
    player: User, rival: User, clock: Clock
) -> None:
    game = clocked_table(player, rival, pace="day1")
    before = seat_of(game, rival).deadline
    take_vacation(rival, clock.at.date() + timedelta(days=1), 5)
    after = seat_of(game, rival).deadline
    assert before is not None and after is not None and after > before + timedelta(days=4)
    assert "1 of 1 running tables rebuild" in verify()
    Seat.objects.filter(game=game, user=rival).update(deadline=after + timedelta(days=1))
    failing(f"game {game.pk} (midnight-bakery, running)")


def test_a_house_tables_bots_move_times_are_checked(settings: object) -> None:
    game = services.house_table("cakehalla", ["greedy", "random"])
    assert "1 of 1 running tables rebuild" in verify()
    Seat.objects.filter(game=game).update(deadline=None)
    output = failing(f"game {game.pk} (cakehalla, running)")
    assert "the house table waits on its bot, which has no move time." in output


def test_an_empty_site_passes() -> None:
    assert "0 of 0 finished games replay" in verify()


def test_a_finished_game_under_other_rules_is_counted_apart(finished: list[Game]) -> None:
    older = finished[0]
    Game.objects.filter(pk=older.pk).update(rules_version=F("rules_version") + 1)
    output = verify()
    assert "1 of 1 finished games replay to their stored results" in output
    assert "1 finished games were played under rules today's engine does not play" in output
