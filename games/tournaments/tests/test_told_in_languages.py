"""What a tournament's services tell a person (entering, withdrawing, pausing, coming back, a
closed chat, who may enter) is said in that person's language, the tournament's name in place."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import translation

from accounts.models import User
from games.tournaments import access, services
from games.tournaments.models import Tournament
from games.tournaments.services.chat import closed_because
from games.tournaments.tests.conftest import entered, rules, running_tables, swept
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "joined", "left"),
    [
        ("de", "Du bist bei {name} dabei.", "Du hast {name} verlassen."),
        ("fr", "Vous êtes inscrit à {name}.", "Vous avez quitté {name}."),
        ("en", "You are in {name}.", "You left {name}."),
    ],
)
def test_entering_and_withdrawing_before_the_start_are_told_in_the_persons_language(
    clock: Clock, crowd: Crowd, language: str, joined: str, left: str
) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock))
    with translation.override(language):
        said_in = services.join(tournament, person)
        said_out = services.withdraw(tournament, person)
    assert said_in == joined.format(name=tournament.name)
    assert said_out == left.format(name=tournament.name)


@pytest.mark.django_db
def test_withdrawing_mid_round_is_told_in_german_with_the_house_bot(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(3)
    tournament = entered(services.create(None, rules(clock)), people)
    clock.forward(61)
    tournament = swept(tournament)
    assert running_tables(tournament)
    with translation.override("de"):
        said = services.withdraw(tournament, people[0])
    assert said == (
        f"Du hast {tournament.name} verlassen: Ein hauseigener Bot spielt deinen Platz an "
        "deinem Tisch bis zum Ende."
    )


@pytest.mark.django_db
def test_a_cancelled_tournaments_closed_chat_is_said_in_french(clock: Clock) -> None:
    tournament = services.create(None, rules(clock))
    tournament.status = Tournament.Status.CANCELLED
    with translation.override("fr"):
        assert closed_because(tournament) == "Ce tournoi a été annulé, son chat est donc fermé."


@pytest.mark.django_db
def test_who_may_not_enter_is_told_in_german(clock: Clock, crowd: Crowd) -> None:
    (bot,) = crowd(1)
    bot.is_bot = True
    tournament = services.create(None, rules(clock))
    with translation.override("de"):
        assert (
            access.who_may_enter(tournament, bot) == "Nur eine Person kann einem Turnier beitreten."
        )
