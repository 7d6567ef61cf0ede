"""A place in a tournament is given once a game of it has finished: before that everyone is
level, and "1st of 6, 0 points" read as a result nobody had earned."""

from __future__ import annotations

import html as markup
import re
from collections.abc import Callable

import pytest

from accounts.models import User
from games.tournaments import services
from games.tournaments.models import Entrant
from games.tournaments.services.base import ordinal
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.conftest import client_for
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def text_of(html: bytes) -> str:
    """A page's words, tags dropped and spaces squeezed."""
    return " ".join(markup.unescape(re.sub(r"<[^>]+>", " ", html.decode())).split())


def your_line(html: bytes) -> str:
    """The words of the page's own line (your place, or why there is none yet)."""
    found = re.search(rb'<div id="tournament-you-line">(.*?)</div>', html, re.S)
    assert found is not None
    return text_of(found.group(1))


def test_no_place_is_given_before_a_game_has_finished(clock: Clock, crowd: Crowd) -> None:
    people = crowd(6)
    tournament = entered(services.create(None, rules(clock, pace="fast")), people)
    first = people[0]
    before = client_for(first).get(tournament.get_absolute_url()).content
    assert your_line(before) == (
        "You are in, one of 6 entrants so far. Places are given once the first game has finished."
    )
    assert b'class="rank"' not in before  # the standings list the entrants without places

    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    tables = running_tables(tournament)
    assert len(tables) == 2
    under_way = client_for(first).get(tournament.get_absolute_url()).content
    assert your_line(under_way).startswith("You are in, one of 6 entrants. Places are given")

    play_table(tables[0])
    tournament = swept(tournament)
    after = client_for(first).get(tournament.get_absolute_url()).content
    mine = Entrant.objects.get(tournament=tournament, user=first)
    ranked = next(s for s in services.standings(tournament) if s.entrant == mine.pk)
    assert your_line(after).startswith(f"You are in: {ordinal(ranked.rank)} of 6,")
    assert after.count(b'class="rank"') == 6
