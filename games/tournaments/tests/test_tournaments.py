"""Tournaments through their services: a whole Swiss and a whole arena played to their end, a
table counted once, a restart mid-round, absences, withdrawals and a cancel."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import Block, User
from games.models import Game, Seat
from games.notifications.models import Notification
from games.tournaments import services
from games.tournaments.models import Entrant, Round, Table, Tournament
from games.tournaments.tests.conftest import (
    entered,
    play_table,
    rules,
    running_tables,
    swept,
)
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]


def told(user: User, text: str) -> bool:
    return Notification.objects.filter(
        recipient=user, kind="tournament", text__contains=text
    ).exists()


@pytest.mark.django_db(transaction=True)
def test_a_whole_swiss_of_nine_with_byes_is_played_to_its_podium(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(9)
    tournament = entered(services.create(people[0], rules(clock, seats=4, fewest=4)), people)
    clock.forward(61)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.RUNNING and tournament.current_round == 1
    for number in (1, 2, 3):
        tables = running_tables(tournament)
        assert [len(t.people) for t in tables] == [4, 4]
        byes = Table.objects.filter(tournament=tournament, round__number=number, game=None)
        assert [len(b.people) for b in byes] == [1]  # 9 into tables of 4: one bye a round
        for table in tables:
            play_table(
                table
            )  # its end is counted by the game_ended signal, and the next round paired
        tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    byes_had = list(Entrant.objects.filter(tournament=tournament).values_list("byes", flat=True))
    assert sorted(byes_had) == [0] * 6 + [1] * 3  # three different people had the byes
    standing = services.standings(tournament)
    assert [s.place for s in standing] == list(range(1, 10))
    assert standing == sorted(
        standing, key=lambda s: (-s.points, -s.buchholz, -s.wins, -s.rating, s.entrant)
    )
    # Each person's points are what their tables awarded them, nothing patched by hand.
    for s in standing:
        awarded = [
            a["points"] + a["bonus"]
            for t in Table.objects.filter(tournament=tournament)
            for a in t.awarded
            if a["entrant"] == s.entrant
        ]
        assert s.points == pytest.approx(sum(awarded))
        assert s.games + s.byes == 3
    winner = User.objects.get(pk=standing[0].user_id)
    assert told(winner, f"You finished 1st in {tournament.name}.")
    assert Round.objects.filter(tournament=tournament).count() == 3


@pytest.mark.django_db
def test_a_whole_arena_is_played_to_its_end_and_a_late_table_counts(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(6)
    arena = rules(clock, format="arena", pace="fast", minutes=10, seats=3, streak_bonus=2)
    tournament = entered(services.create(None, arena), people)

    def sweep_with_everyone_here() -> Tournament:
        for person in people:
            services.here(tournament.pk, person.pk)
        return swept(tournament)

    clock.forward(61)
    tournament = sweep_with_everyone_here()
    assert tournament.status == Tournament.Status.RUNNING
    played = 0
    assert tournament.ends_at is not None
    while clock() < tournament.ends_at:
        tables = running_tables(tournament)
        assert len(tables) == 2  # six free people, tables of three: everyone is seated at once
        seated = [e for t in tables for e in t.people]
        assert len(seated) == len(set(seated)) == 6
        for table in tables:
            play_table(table)
            played += 1
        clock.forward(150)
        tournament = sweep_with_everyone_here()  # counts the ended tables, seats everyone again
    late = running_tables(tournament)
    assert late == []  # none started after the end
    assert tournament.status == Tournament.Status.FINISHED
    assert Table.objects.filter(tournament=tournament, recorded=True).count() == played
    total = sum(
        a["points"] + a["bonus"]
        for t in Table.objects.filter(tournament=tournament)
        for a in t.awarded
    )
    assert sum(s.points for s in services.standings(tournament)) == pytest.approx(total)


@pytest.mark.django_db
def test_tables_running_at_the_arenas_end_finish_and_count(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    tournament = entered(
        services.create(None, rules(clock, format="arena", pace="relaxed", minutes=10)), people
    )
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    clock.forward(11 * 60)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.RUNNING  # waits for its last table
    play_table(table)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    assert sum(s.points for s in services.standings(tournament)) == 6 + 3 + 0


@pytest.mark.django_db
def test_a_table_is_counted_once_whoever_records_it(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    tournament = entered(services.create(None, rules(clock, rounds=2)), people)
    clock.forward(61)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    play_table(table)  # no commit hooks here: the signal's receiver is not run
    assert services.record_table(table.pk) is True
    assert services.record_table(table.pk) is False
    tournament = swept(tournament)  # the sweep finds it recorded and pairs round 2
    points = sorted(Entrant.objects.filter(tournament=tournament).values_list("points", flat=True))
    # 6/3/0 by place; a tie in the game (its deal is random) shares the places' points, so the
    # three always share 9 once: a second count would make it 18.
    assert sum(points) == 9 and max(points) <= 6
    assert tournament.current_round == 2


@pytest.mark.django_db
def test_a_restart_mid_round_loses_nothing(clock: Clock, crowd: Crowd) -> None:
    people = crowd(6)
    tournament = entered(services.create(None, rules(clock, rounds=2)), people)
    clock.forward(61)
    tournament = swept(tournament)
    first, second = running_tables(tournament)
    play_table(first)  # ends while the process that would have heard it is gone
    # A fresh process knows only the rows: its sweep counts the ended table and waits for the other.
    tournament = swept(tournament)
    first.refresh_from_db()
    assert first.recorded and tournament.current_round == 1
    assert running_tables(tournament) == [second]
    play_table(second)
    tournament = swept(tournament)
    assert tournament.current_round == 2
    assert Round.objects.filter(tournament=tournament).count() == 2
    tournament = swept(tournament)  # again: nothing more is made
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Table.objects.filter(tournament=tournament).count() == 4


@pytest.mark.django_db
def test_an_absent_entrant_is_skipped_and_withdrawn_after_two_rounds(
    clock: Clock, crowd: Crowd, settings: Any
) -> None:
    settings.SWISS_CHECK_IN_SECONDS = 0  # no wait for the away (test_absence.py has the wait)
    people = crowd(4)
    tournament = entered(services.create(None, rules(clock, pace="fast", rounds=3)), people)
    here, away = people[:3], people[3]
    entrant = Entrant.objects.get(tournament=tournament, user=away)
    for round_number in (1, 2):
        clock.forward(61)
        for person in here:
            services.here(tournament.pk, person.pk)
        tournament = swept(tournament)
        assert tournament.current_round == round_number
        (table,) = running_tables(tournament)
        assert entrant.pk not in table.people
        play_table(table)
        entrant.refresh_from_db()
        assert entrant.absences == round_number and entrant.points == 0
    clock.forward(61)
    for person in here:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    entrant.refresh_from_db()
    assert entrant.withdrawn and entrant.withdrawn_why == "absent"
    assert tournament.current_round == 3


@pytest.mark.django_db
def test_withdrawing_mid_round_hands_the_seat_to_a_house_bot(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    tournament = entered(services.create(None, rules(clock)), people)
    clock.forward(61)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    said = services.withdraw(tournament, people[0])
    assert "a house bot plays your seat" in said
    seat = Seat.objects.get(game=table.game, user=people[0])
    assert seat.resigned and seat.bot
    entrant = Entrant.objects.get(tournament=tournament, user=people[0])
    assert entrant.withdrawn and entrant.withdrawn_why == "left"
    from tests.support.finished_games import play_out

    assert table.game is not None
    play_out(table.game, people[1:])
    tournament = swept(tournament)
    assert tournament.current_round == 2
    assert all(entrant.pk not in t.people for t in running_tables(tournament))


@pytest.mark.django_db
def test_a_tournament_too_few_joined_is_cancelled_with_a_word_to_its_creator(
    clock: Clock, crowd: Crowd
) -> None:
    creator, only = crowd(2)
    tournament = entered(services.create(creator, rules(clock)), [only])
    clock.forward(61)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    assert told(creator, "was cancelled: 1 of the 3 people a table needs joined")
    assert told(only, "was cancelled")
    assert not Table.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
def test_starts_in_five_minutes_is_told_once(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    tournament = entered(
        services.create(None, rules(clock, starts_at=clock() + timedelta(minutes=8))), people
    )
    tournament = swept(tournament)
    assert not told(people[0], "starts in 5 minutes")
    clock.forward(3 * 60 + 1)
    swept(tournament)
    swept(tournament)
    assert (
        Notification.objects.filter(recipient=people[0], text__contains="starts in 5").count() == 1
    )


@pytest.mark.django_db
def test_a_blocked_pair_never_shares_a_table(clock: Clock, crowd: Crowd) -> None:
    people = crowd(6)
    Block.objects.create(blocker=people[0], blocked=people[1])
    tournament = services.create(None, rules(clock, rounds=1))
    said = [services.join(tournament, person) for person in people]
    assert "never share a table" in said[1]  # the second of the pair to join is told
    assert "never share a table" not in said[0] + said[2]
    clock.forward(61)
    tournament = swept(tournament)
    ids = dict(Entrant.objects.filter(tournament=tournament).values_list("user_id", "pk"))
    for table in running_tables(tournament):
        assert not {ids[people[0].pk], ids[people[1].pk]} <= set(table.people)


@pytest.mark.django_db
def test_a_table_aborted_by_a_moderator_counts_for_nobody(clock: Clock, crowd: Crowd) -> None:
    from games.services import moderation

    people = crowd(3)
    mod = User.objects.create_superuser(username="mod", password="a-long-baking-secret")
    tournament = entered(services.create(None, rules(clock, rounds=1)), people)
    clock.forward(61)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    assert table.game is not None
    moderation.abort(table.game, mod, "A broken table.")
    tournament = swept(tournament)
    table.refresh_from_db()
    assert table.recorded and table.awarded == []
    assert tournament.status == Tournament.Status.FINISHED
    assert Game.objects.get(pk=table.game.pk).status == Game.Status.ABORTED
