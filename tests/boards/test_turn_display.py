"""How a turn-based table's seat line reads a person who is not at it (offline, never
"reconnecting") and a clock held by a vacation (in days and hours, never minutes); live tables
keep their wording. Time is moved by patching the clocks."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from accounts.models import User
from games.boards import epoch_ms, render_board
from games.models import Game, TableSocket
from games.vacation.services import take_vacation
from tests.services.test_turn_based import turn_based
from tests.services.test_your_games import made_to_wait_on
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db


def seat_line(html: str, name: str) -> str:
    """The seat line (<li>) of this person at the table."""
    for line in re.findall(r'<li class="table-seat.*?</li>', html, re.S):
        if f'<span class="player">{name}' in line:
            return str(line)
    raise AssertionError(f"no seat line for {name}")


def presence_words(line: str) -> str:
    found = re.search(r'<span class="presence">(.*?)</span>', line)
    assert found, "no presence on the seat line"
    return found.group(1)


def dropped_socket(game: Game, user: User, clock: Clock, ago: float) -> None:
    """A socket of this person at the table that closed `ago` seconds back."""
    TableSocket.objects.create(
        game=game,
        user=user,
        channel=f"test.{user.pk}.{game.pk}",
        process="test",
        open=False,
        seen_at=clock.at - timedelta(seconds=ago),
        told="dropped",
    )


def test_a_turn_based_rival_who_just_left_reads_offline_not_reconnecting(
    clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "cakehalla", "day1")
    dropped_socket(game, rival, clock, ago=5)
    line = seat_line(render_board(game, player), rival.username)
    assert presence_words(line) == "offline"
    assert 'data-presence="offline"' in line
    assert "reconnecting" not in line and "away too long" not in line


def test_a_turn_based_rival_gone_for_hours_reads_offline(
    clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "midnight-bakery", "day3")
    clock.forward(3 * 3600)
    line = seat_line(render_board(game, player), rival.username)
    assert presence_words(line) == "offline"
    assert "away too long" not in line


def test_a_live_table_still_reads_reconnecting_then_away(
    clock: Clock, player: User, rival: User, outsider: User
) -> None:
    dropped = turn_based([player, rival], "cakehalla", "fast")
    dropped_socket(dropped, rival, clock, ago=5)
    assert presence_words(seat_line(render_board(dropped, player), rival.username)) == (
        "reconnecting…"
    )
    gone = turn_based([player, outsider], "cakehalla", "fast")
    assert presence_words(seat_line(render_board(gone, player), outsider.username)) == "away"


def test_a_vacationing_persons_clock_is_held_to_the_vacations_end(
    clock: Clock, player: User, rival: User
) -> None:
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "day1"), player, [rival])
    vacation = take_vacation(player, clock.at.date(), 3)
    line = seat_line(render_board(game, rival), player.username)
    assert presence_words(line) == "offline"
    assert "on vacation until" in line
    assert f'data-starts="{epoch_ms(vacation.ends_at)}"' in line
    assert 'data-held="vacation"' in line


def test_a_clock_running_before_a_later_vacation_counts_no_start(
    clock: Clock, player: User, rival: User
) -> None:
    """The vacation to come moved the deadline on; the clock runs now, so no "starts in"."""
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "day3"), player, [rival])
    take_vacation(player, clock.at.date() + timedelta(days=1), 4)
    line = seat_line(render_board(game, rival), player.username)
    assert 'data-starts=""' in line and 'data-held=""' in line
    assert "on vacation until" not in line
