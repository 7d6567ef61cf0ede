"""A live Swiss and the people who are away (issue 46, item 1): a round nobody is here for waits,
then is called off in words; "here" is any page of the site with a socket, or "I'm here"; the
away are told before and after, with the rule; a withdrawal for absence says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.notifications.models import Notification
from games.pairing.models import Seek
from games.services import presence, seat_people
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.services import absence
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

WAIT = 120
"""SWISS_CHECK_IN_SECONDS in these tests."""


@pytest.fixture(autouse=True)
def _check_in(settings: Any) -> None:
    settings.SWISS_CHECK_IN_SECONDS = WAIT
    settings.AWAY_SECONDS = 30


def told(user: User, text: str) -> list[str]:
    rows = Notification.objects.filter(recipient=user, kind="tournament", text__contains=text)
    return list(rows.values_list("text", flat=True))


def fast_swiss(clock: Clock, people: list[User], **changes: Any) -> Tournament:
    """A fast Swiss of tables of 2 whose entrants then closed their pages (joining counted as
    here: AWAY_SECONDS pass before the start)."""
    settings = {"pace": "fast", "seats": 2, "rounds": 3, **changes}
    return entered(services.create(None, rules(clock, **settings)), people)


@pytest.mark.django_db
def test_a_swiss_nobody_is_here_for_waits_then_is_called_off_in_words(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(5)
    tournament = fast_swiss(clock, people)
    clock.forward(61)
    tournament = swept(tournament)
    # Not finished at once: the first round waits for them, and each is told before.
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.current_round == 0 and tournament.round_due_at is not None
    for person in people:
        (warning,) = told(person, "you seem away")
        assert "I'm here" in warning
    clock.forward(WAIT - 1)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.RUNNING and tournament.current_round == 0
    clock.forward(2)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.reason.startswith("Nobody was here when it was due to start")
    assert tournament.stop_reason == "" and tournament.stop_code == "nobody-came"
    assert not Entrant.objects.filter(tournament=tournament, withdrawn=True).exists()
    for person in people:
        assert told(person, "was cancelled. Nobody was here")


@pytest.mark.django_db
def test_the_round_goes_on_as_soon_as_the_away_come_back(clock: Clock, crowd: Crowd) -> None:
    people = crowd(4)
    tournament = fast_swiss(clock, people)
    clock.forward(61)
    for person in people[:3]:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    assert tournament.current_round == 0
    assert told(people[3], "you seem away") and not told(people[0], "you seem away")
    clock.forward(10)
    services.check_in(tournament, people[3])
    tournament = swept(tournament)
    assert tournament.current_round == 1 and tournament.round_due_at is None
    seated = {e for table in running_tables(tournament) for e in table.people}
    assert len(seated) == 4


@pytest.mark.django_db
def test_a_page_anywhere_on_the_site_counts_as_here(clock: Clock, crowd: Crowd) -> None:
    """A table of any game (here a friendly one, not the tournament's) keeps its person here."""
    people = crowd(4)
    tournament = fast_swiss(clock, people)
    other = seat_people("midnight-bakery", crowd(2), pace="relaxed")
    clock.forward(61)
    for n, person in enumerate(people):
        presence.opened(f"channel-{n}", other.pk, person.pk)
    tournament = swept(tournament)
    assert tournament.current_round == 1
    assert not told(people[0], "you seem away")


@pytest.mark.django_db
def test_a_check_in_before_the_round_counts_though_the_page_closed(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(2)
    tournament = fast_swiss(clock, people)
    clock.forward(30)
    for person in people:
        services.check_in(tournament, person)
    clock.forward(31)  # past AWAY_SECONDS, no page open: the check-in still holds
    tournament = swept(tournament)
    assert tournament.current_round == 1


@pytest.mark.django_db
def test_the_away_are_told_before_and_after_and_withdrawn_in_words(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(3)
    tournament = fast_swiss(clock, people, rounds=3)
    here, away = people[:2], people[2]
    entrant = Entrant.objects.get(tournament=tournament, user=away)
    for number in (1, 2):
        clock.forward(61)
        for person in here:
            services.here(tournament.pk, person.pk)
        tournament = swept(tournament)
        assert tournament.current_round == number - 1  # waits for the away one
        assert told(away, f"Round {number} of Test Swiss starts")
        clock.forward(WAIT)
        for person in here:
            services.here(tournament.pk, person.pk)
        tournament = swept(tournament)
        assert tournament.current_round == number
        (table,) = running_tables(tournament)
        assert entrant.pk not in table.people
        play_table(table)
    entrant.refresh_from_db()
    (skipped,) = told(away, "Round 1 of Test Swiss started without you")
    assert "two rounds missed in a row withdraw you" in skipped
    assert entrant.withdrawn and entrant.withdrawn_why == Entrant.Withdrawn.ABSENT
    assert entrant.withdrawn_round == 2
    (withdrawn,) = told(away, "You were withdrawn from Test Swiss at round 2")
    assert "join it again" in withdrawn
    assert entrant.withdrawn_words == "withdrawn: away at round 2"


def test_a_long_name_is_cut_short_in_what_the_away_are_told_not_the_rule() -> None:
    rule = " started without you: two rounds missed in a row withdraw you."
    text = absence.fitted("Round 2 of {name}" + rule, "x" * 190)
    assert len(text) == 200 and text.endswith("x\u2026" + rule)


@pytest.mark.django_db
def test_a_later_round_nobody_is_here_for_ends_the_event_in_words(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(2)
    tournament = fast_swiss(clock, people, rounds=3)
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    play_table(table)
    clock.forward(61)  # both closed their pages
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    clock.forward(WAIT + 1)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.current_round == 1
    assert tournament.reason == "It ended after round 1: nobody was here for round 2."
    assert tournament.stop_values == {"number": 2}


@pytest.mark.django_db
def test_withdrawn_for_absence_can_join_again(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    tournament = fast_swiss(clock, people, rounds=3)
    entrant = Entrant.objects.get(tournament=tournament, user=people[2])
    entrant.withdrawn, entrant.withdrawn_why = True, Entrant.Withdrawn.ABSENT
    entrant.withdrawn_round, entrant.absences = 2, 2
    entrant.save()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    said = services.join(tournament, people[2])
    assert said == "Welcome back to Test Swiss: you play from the next round."
    entrant.refresh_from_db()
    assert not entrant.withdrawn and entrant.absences == 0 and entrant.withdrawn_why == ""


@pytest.mark.django_db
def test_the_page_and_the_profile_say_withdrawn_for_absence(
    clock: Clock, crowd: Crowd, client: Client
) -> None:
    people = crowd(3)
    tournament = fast_swiss(clock, people)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    Entrant.objects.filter(tournament=tournament, user=people[2]).update(
        withdrawn=True, withdrawn_why=Entrant.Withdrawn.ABSENT, withdrawn_round=2
    )
    Entrant.objects.filter(tournament=tournament, user=people[1]).update(
        withdrawn=True, withdrawn_why=Entrant.Withdrawn.LEFT
    )
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "withdrawn: away at round 2" in page
    assert "withdrew" in page
    client.force_login(people[2])
    profile = client.get(reverse("profile", args=[people[2].username])).content.decode()
    assert "withdrawn: away at round 2" in profile
    assert ">left<" not in profile
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "You were withdrawn at round 2: you were away two rounds in a row." in page


@pytest.mark.django_db
def test_a_waiting_round_says_so_and_im_here_is_a_form_that_works_without_scripts(
    clock: Clock, crowd: Crowd, client: Client
) -> None:
    people = crowd(2)
    tournament = fast_swiss(clock, people)
    clock.forward(61)
    services.here(tournament.pk, people[0].pk)
    tournament = swept(tournament)
    client.force_login(people[1])
    url = reverse("tournaments:detail", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "Round <strong>1</strong> of 3 waits for entrants who seem away" in page
    assert "A round waits up to 2 minutes for those who seem away, who are told" in page
    listed = client.get(reverse("tournaments:list")).content.decode()
    assert "Round 1 of 3 waits for entrants who seem away" in listed
    action = reverse("tournaments:check_in", args=[tournament.pk])
    assert f'<form method="post" action="{action}">' in page
    answer = client.post(action, follow=True).content.decode()
    assert "Thank you: you are here for the next round of Test Swiss." in answer
    assert "You pressed &ldquo;I&rsquo;m here&rdquo;: you play the next round" in answer
    assert f'action="{action}"' not in answer
    tournament = swept(tournament)
    assert tournament.current_round == 1 and tournament.round_due_at is None
    assert len({e for t in running_tables(tournament) for e in t.people}) == 2


@pytest.mark.django_db
@pytest.mark.parametrize("where", ["another tournament's page", "the waiting panel"])
def test_other_pages_of_the_site_count_as_here(clock: Clock, crowd: Crowd, where: str) -> None:
    people = crowd(2)
    tournament = fast_swiss(clock, people)
    # a turn-based one: two live events at once are refused (services/busy.py)
    other = entered(services.create(None, rules(clock, name="Another Swiss", rounds=1)), people)
    clock.forward(61)
    for person in people:
        if where == "the waiting panel":
            Seek.objects.create(
                user=person,
                kind="midnight-bakery",
                pace="fast",
                fewest=2,
                most=4,
                rating=1500,
                last_seen=clock(),
            )
        else:
            services.here(other.pk, person.pk)
    tournament = swept(tournament)
    assert tournament.current_round == 1


@pytest.mark.django_db
def test_someone_playing_a_live_table_elsewhere_is_waited_for_then_skipped_in_words(
    clock: Clock, crowd: Crowd
) -> None:
    """One person, one live table: a live Swiss round does not seat an entrant who plays a live
    table outside it (here, with the tournament's page open too); it waits for them as for the
    away, telling them why, then plays without them."""
    people = crowd(3)
    tournament = fast_swiss(clock, people)
    busy = people[2]
    seat_people("midnight-bakery", [busy, *crowd(1)], pace="fast")
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    assert tournament.current_round == 0
    (warned,) = told(busy, "you are playing a live table elsewhere")
    assert "finish or leave it" in warned
    assert not told(busy, "you seem away") and not told(people[0], "Round 1 of")
    clock.forward(WAIT)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    assert tournament.current_round == 1
    (table,) = running_tables(tournament)
    busy_entrant = Entrant.objects.get(tournament=tournament, user=busy)
    assert busy_entrant.pk not in table.people
    (skipped,) = told(busy, "Round 1 of Test Swiss started without you")
    assert "you were playing a live table elsewhere" in skipped
