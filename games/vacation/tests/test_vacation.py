"""Vacations: a person's turn-based clocks stand still while they are away, within a yearly
allowance; rivals see it; live tables are not affected. Time is moved by patching the clocks."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from accounts.models import User, Vacation
from games import services
from games.boards import render_board
from games.models import Seat
from games.services import clocks
from games.services.clocks.deadlines import due_deadlines
from games.vacation.services import announce_vacations, end_vacation, take_vacation
from tests.conftest import client_for
from tests.services.test_turn_based import move, to_move, turn_based
from tests.services.test_your_games import made_to_wait_on
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db

DAY = 86400.0


def clock_of(game_id: int, user: User) -> Seat:
    return Seat.objects.get(game_id=game_id, user=user)


def test_a_vacation_pushes_a_running_deadline_by_its_length(
    clock: Clock, player: User, rival: User
) -> None:
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "day1"), player, [rival])
    before = clock_of(game.pk, player).deadline
    assert before is not None
    take_vacation(player, clock.at.date(), 5)
    after = clock_of(game.pk, player).deadline
    assert after == before + timedelta(days=5)
    clock.at = before + timedelta(seconds=1)  # the old deadline passes: nothing happens
    assert game.pk not in due_deadlines()
    assert services.run_bots(game.pk) == 0
    clock.at = after + timedelta(seconds=1)
    assert game.pk in due_deadlines()
    assert services.run_bots(game.pk) == 1


def test_a_clock_that_starts_during_a_vacation_starts_at_its_end(
    clock: Clock, player: User, rival: User
) -> None:
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "day3"), rival, [player])
    vacation = take_vacation(player, clock.at.date(), 4)
    clock.forward(DAY)
    move(game, rival, random.Random(4))
    assert to_move(game, [player, rival]) == [player]
    deadline = clock_of(game.pk, player).deadline
    assert deadline == vacation.ends_at + timedelta(days=6)  # 3 days a move + 3 days bank


def test_a_clock_running_into_a_later_vacation_stands_still_through_it(
    clock: Clock, player: User, rival: User
) -> None:
    take_vacation(player, clock.at.date() + timedelta(days=1), 2)  # from tomorrow's midnight
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "day1"), player, [rival])
    deadline = clock_of(game.pk, player).deadline
    assert deadline == clock.at + timedelta(days=3 + 2)


def test_live_tables_are_not_affected(clock: Clock, player: User, rival: User) -> None:
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "fast"), player, [rival])
    before = clock_of(game.pk, player).deadline
    take_vacation(player, clock.at.date(), 3)
    assert clock_of(game.pk, player).deadline == before


def test_rivals_see_the_vacation_at_the_table_and_in_their_games(
    clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "midnight-bakery", "day1")
    version = game.version
    vacation = take_vacation(player, clock.at.date(), 3)
    game.refresh_from_db()
    assert game.version == version + 1  # the rivals' screens are told
    until = clocks.day_words(vacation.ends_at)
    at = f'<time datetime="{vacation.ends_at.isoformat()}" data-local="day">{until}</time>'
    assert f"on vacation until {at}" in render_board(game, rival)  # in the reader's zone
    page = client_for(rival).get("/games/mine/").content.decode()
    assert f"{player.username}: on vacation until {until}" in page
    clock.at = vacation.ends_at + timedelta(seconds=1)
    assert "on vacation until" not in render_board(game, rival)


def test_the_allowance_is_refused_past_its_limit_with_a_clear_sentence(
    clock: Clock, player: User
) -> None:
    clock.at = datetime(2027, 3, 1, 9, tzinfo=UTC)
    today = clock.at.date()
    with pytest.raises(services.ServiceError, match="at most 14 days at once"):
        take_vacation(player, today, 15)
    take_vacation(player, today, 14)
    with pytest.raises(services.ServiceError, match="already away"):
        take_vacation(player, today + timedelta(days=3), 2)
    later = today + timedelta(days=20)
    with pytest.raises(services.ServiceError, match="only 7 days of your 21 vacation days"):
        take_vacation(player, later, 8)
    assert Vacation.objects.filter(user=player).count() == 1
    take_vacation(player, later, 7)


def test_the_allowance_is_refused_in_the_persons_language(clock: Clock, player: User) -> None:
    clock.at = datetime(2027, 3, 1, 9, tzinfo=UTC)
    today = clock.at.date()
    with translation.override("de"):
        with pytest.raises(services.ServiceError, match="höchstens 14 Tage am Stück"):
            take_vacation(player, today, 15)
        take_vacation(player, today, 14)
        with pytest.raises(services.ServiceError, match="nur noch 7 Tage übrig"):
            take_vacation(player, today + timedelta(days=20), 8)
    with (
        translation.override("fr"),
        pytest.raises(services.ServiceError, match="déjà des vacances"),
    ):
        take_vacation(player, today + timedelta(days=3), 2)
    assert Vacation.objects.filter(user=player).count() == 1


def test_the_vacation_page_takes_one_and_refuses_in_words(clock: Clock, player: User) -> None:
    web = client_for(player)
    assert "Take a few days away" in web.get("/accounts/settings/").content.decode()
    page = web.get("/games/vacation/").content.decode()
    assert "21 days</strong> of your 21 vacation days" in page
    refused = web.post("/games/vacation/", {"starts": clock.at.date().isoformat(), "days": "30"})
    assert refused.status_code == 400
    assert "A vacation lasts at most 14 days at once." in refused.content.decode()
    assert not Vacation.objects.filter(user=player).exists()
    garbage = web.post("/games/vacation/", {"starts": "soon", "days": "x"})
    assert garbage.status_code == 400 and "Choose the day" in garbage.content.decode()
    taken = web.post(
        "/games/vacation/", {"starts": clock.at.date().isoformat(), "days": "3"}, follow=True
    )
    assert "You are on vacation until" in taken.content.decode()
    assert "18 days</strong> of your 21 vacation days" in taken.content.decode()


def test_ending_a_vacation_early_brings_the_deadline_back_and_counts_the_days_taken(
    clock: Clock, player: User, rival: User
) -> None:
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "day1"), player, [rival])
    before = clock_of(game.pk, player).deadline
    assert before is not None
    vacation = take_vacation(player, clock.at.date(), 6)
    clock.forward(2 * DAY - 3600)  # back after 1 day 23 hours
    ended = end_vacation(player, vacation.pk)
    assert ended is not None and ended.days == 2
    # The clock stood still for the days away, and runs again from now.
    assert clock_of(game.pk, player).deadline == before + timedelta(seconds=2 * DAY - 3600)
    with pytest.raises(services.ServiceError, match="over already"):
        end_vacation(player, vacation.pk)


def test_a_vacation_ended_after_a_minute_uses_an_hour_of_the_allowance(
    clock: Clock, player: User
) -> None:
    clock.at = datetime(2027, 3, 1, 9, tzinfo=UTC)
    vacation = take_vacation(player, clock.at.date(), 14)
    clock.forward(60)
    web = client_for(player)
    ended = web.post(f"/games/vacation/{vacation.pk}/end/", follow=True).content.decode()
    assert "20 days and 23 hours</strong> of your 21 vacation days for 2027" in ended
    assert "only the hours you were away count" in ended
    take_vacation(player, clock.at.date() + timedelta(days=1), 14)
    with pytest.raises(services.ServiceError, match="only 6 days and 23 hours of your 21"):
        take_vacation(player, clock.at.date() + timedelta(days=20), 7)
    take_vacation(player, clock.at.date() + timedelta(days=20), 6)


def test_calling_off_a_vacation_to_come_gives_its_days_back(
    clock: Clock, player: User, rival: User
) -> None:
    clock.at = datetime(2027, 5, 3, 9, tzinfo=UTC)
    game = made_to_wait_on(turn_based([player, rival], "cakehalla", "day7"), player, [rival])
    before = clock_of(game.pk, player).deadline
    vacation = take_vacation(player, clock.at.date() + timedelta(days=2), 10)
    assert clock_of(game.pk, player).deadline != before
    assert end_vacation(player, vacation.pk) is None
    assert clock_of(game.pk, player).deadline == before
    assert not Vacation.objects.filter(user=player).exists()


def test_nobody_ends_another_persons_vacation(clock: Clock, player: User, rival: User) -> None:
    vacation = take_vacation(player, clock.at.date(), 3)
    answer = client_for(rival).post(f"/games/vacation/{vacation.pk}/end/")
    assert answer.status_code == 400
    assert Vacation.objects.get(pk=vacation.pk).ends_at == vacation.ends_at
    clock.forward(3600)
    mine = client_for(player).post(f"/games/vacation/{vacation.pk}/end/", follow=True)
    assert "Your vacation is over" in mine.content.decode()


def test_a_vacation_taken_ahead_tells_the_tables_when_it_starts_and_when_it_ends(
    clock: Clock, player: User, rival: User
) -> None:
    """Taken for a later day, a vacation starts with no move to show it: the sweep gives the
    person's turn-based tables a new version at its start and at its end, once each, so a
    rival's open page (pushed on each version) says it on time."""
    game = turn_based([player, rival], "midnight-bakery", "day1")
    vacation = take_vacation(player, clock.at.date() + timedelta(days=2), 3)
    game.refresh_from_db()
    taken = game.version
    assert announce_vacations() == 0  # not started: nothing to tell
    clock.at = vacation.starts_at + timedelta(seconds=1)
    assert announce_vacations() == 1
    assert announce_vacations() == 0  # told once, whichever process sweeps next
    game.refresh_from_db()
    assert game.version == taken + 1
    assert "on vacation until" in render_board(game, rival)
    clock.at = vacation.ends_at + timedelta(seconds=1)
    assert announce_vacations() == 1
    game.refresh_from_db()
    assert game.version == taken + 2
    assert "on vacation until" not in render_board(game, rival)
    assert announce_vacations() == 0


def test_a_vacation_ended_early_or_started_at_once_is_not_told_again(
    clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "midnight-bakery", "day1")
    vacation = take_vacation(player, clock.at.date(), 3)  # starts now: told as it is taken
    assert announce_vacations() == 0
    clock.forward(DAY)
    assert end_vacation(player, vacation.pk) is not None  # ended early: told as it ends
    game.refresh_from_db()
    version = game.version
    clock.forward(3 * DAY)
    assert announce_vacations() == 0
    game.refresh_from_db()
    assert game.version == version


def test_the_days_field_says_what_it_holds_once_the_allowance_counts_hours(
    clock: Clock, player: User
) -> None:
    clock.at = datetime(2027, 3, 1, 9, tzinfo=UTC)
    vacation = take_vacation(player, clock.at.date(), 14)
    clock.forward(60)
    ended = end_vacation(player, vacation.pk)
    assert ended is not None and ended.days == 1  # the day it had begun, not the allowance used
    help_text = str(Vacation._meta.get_field("days").help_text)
    assert "Days of the yearly allowance it uses" not in help_text
    assert "once ended early, the days it had begun" in help_text
    assert "counts the hours" in help_text
