"""Your games: every table a person sits at, their move first (soonest deadline first, with the
time left), then the others with whose move it is; and the next game waiting on them."""

from __future__ import annotations

import random
import re

import pytest

from accounts.models import User
from games import services
from games.models import Game
from games.services.yours import next_waiting, your_tables
from tests.conftest import client_for
from tests.services.test_turn_based import move, to_move, turn_based
from tests.support.clock import Clock

# backend: its lists are SQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def rows(html: str) -> list[str]:
    """The game ids of the listed tables, in order."""
    return re.findall(r'class="your-table[^"]*" data-game="(\d+)"', html)


def made_to_wait_on(game: Game, user: User, others: list[User]) -> Game:
    """Move at the table until it waits on `user` alone."""
    rng = random.Random(0)
    for _ in range(10):
        waiting = to_move(game, [user, *others])
        if waiting == [user]:
            return game
        move(game, next(u for u in waiting if u != user), rng)
    raise AssertionError("the table never waited on the person alone")


def test_your_move_comes_first_soonest_deadline_first_then_the_others(
    clock: Clock, player: User, rival: User, outsider: User
) -> None:
    week = made_to_wait_on(turn_based([player, rival], "cakehalla", "day7"), player, [rival])
    day = made_to_wait_on(turn_based([player, outsider], "cakehalla", "day1"), player, [outsider])
    theirs = turn_based([player, rival], "cakehalla", "day3")
    theirs = made_to_wait_on(theirs, rival, [player])
    open_table = services.create_game(player, "midnight-bakery", 3)
    tables = your_tables(player)
    assert [t.game.pk for t in tables] == [day.pk, week.pk, open_table.pk, theirs.pk]
    assert [t.your_move for t in tables] == [True, True, False, False]
    assert tables[0].time_left == "3 d left"  # 1 day a move plus 2 days bank
    assert tables[1].time_left == "14 d left"
    assert tables[3].to_move == [rival.username]
    page = client_for(player).get("/games/mine/").content.decode()
    assert rows(page) == [str(day.pk), str(week.pk), str(open_table.pk), str(theirs.pk)]
    assert "3 d left" in page and f"{rival.username} to move" in page
    assert f"Next game waiting on you: {day}" in page
    lobby = client_for(player).get("/").content.decode()
    assert rows(lobby) == rows(page)
    assert re.search(r'id="waiting-badge"[^>]*>2<', lobby)


def test_time_left_shrinks_as_days_pass(clock: Clock, player: User, rival: User) -> None:
    made_to_wait_on(turn_based([player, rival], "cakehalla", "day1"), player, [rival])
    clock.forward(86400 + 3 * 3600)
    [table] = your_tables(player)
    assert table.time_left == "1 d 21 h left"


def test_next_game_waiting_on_you_skips_this_table_and_tables_not_waiting(
    clock: Clock, player: User, rival: User, outsider: User
) -> None:
    here = made_to_wait_on(turn_based([player, rival], "cakehalla", "day1"), player, [rival])
    there = made_to_wait_on(turn_based([player, outsider], "cakehalla", "day3"), player, [outsider])
    found = next_waiting(player, after=here.pk)
    assert found is not None and found.game.pk == there.pk
    # Both wait on you: each table mentions the other, and never says that none other waits.
    answer = client_for(player).get(f"/games/{here.pk}/next/").content.decode()
    assert f'Also waiting on you: <a href="/games/{there.pk}/">{there}</a>' in answer
    assert "none other waits" not in answer
    move(here, player, random.Random(1))
    assert to_move(here, [player, rival]) == [rival]
    answer = client_for(player).get(f"/games/{here.pk}/next/").content.decode()
    assert f"Next game waiting on you: {there}" in answer
    assert f'href="/games/{there.pk}/"' in answer
    # At a table that waits on you, nothing points away from it.
    answer = client_for(player).get(f"/games/{there.pk}/next/").content.decode()
    assert "Next game waiting on you" not in answer


def test_the_table_page_asks_for_the_next_game_only_at_a_turn_based_table_you_sit_at(
    player: User, rival: User, outsider: User
) -> None:
    day = turn_based([player, rival], "cakehalla", "day1")
    live = turn_based([player, rival], "cakehalla", "fast")
    assert 'id="next-game"' in client_for(player).get(f"/games/{day.pk}/").content.decode()
    assert 'id="next-game"' not in client_for(player).get(f"/games/{live.pk}/").content.decode()
    watched = client_for(outsider).get(f"/games/{day.pk}/").content.decode()
    assert "You are watching" in watched and 'id="next-game"' not in watched


def test_your_games_is_for_signed_in_people(player: User) -> None:
    answer = client_for(None).get("/games/mine/")
    assert answer.status_code == 302 and "/login" in answer["Location"]
