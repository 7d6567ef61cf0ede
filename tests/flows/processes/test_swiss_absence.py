"""A live Swiss swept by two Daphne processes on one PostgreSQL (issue 46, item 1): two
entrants whose tournament page is closed but who watch a table, each on another process, are
here; the third, with nothing open, is told before the round that it waits for them, then that
it started without them. Nothing is finished at once."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from bench.web.site import Site
from games.notifications.models import Notification
from games.services import seat_people
from games.tournaments import services
from games.tournaments.models import Entrant, Round, Table, Tournament
from tests.conftest import needs_env, own_prefix
from tests.support.daphnes import Person, daphnes
from tests.support.sockets import session_of

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]

AWAY = 8  # AWAY_SECONDS of the processes: the entrants' join no longer counts at the start
WAIT = 4  # SWISS_CHECK_IN_SECONDS of the processes


@pytest.fixture
def two_processes(transactional_db: None) -> Iterator[Site]:
    prefix = own_prefix("swiss-absence")
    with daphnes(
        2,
        os.environ["REDIS_URL"],
        prefix,
        AWAY_SECONDS=str(AWAY),
        SWISS_CHECK_IN_SECONDS=str(WAIT),
        BOT_SWEEP_SECONDS="1",
        TOURNAMENT_SWEEP_SECONDS="0.5",
    ) as site:
        yield site


def fast_swiss(people: list[User], starts_in: float) -> Tournament:
    rules = services.Rules(
        name="Fast Swiss",
        kind="midnight-bakery",
        format="swiss",
        pace="fast",
        starts_at=services.now() + timedelta(seconds=starts_in),
        seats=2,
        rounds=2,
    )
    tournament = services.create(None, rules)
    for person in people:
        services.join(tournament, person)
    return tournament


def told(user: User, text: str) -> bool:
    return Notification.objects.filter(recipient=user, text__contains=text).exists()


async def until(check: Callable[[], bool], what: str, timeout: float = 60) -> None:
    """Wait on the rows, not on time: until `check` holds (read in a thread), or fail."""
    deadline = time.monotonic() + timeout
    while not await database_sync_to_async(check)():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.2)


async def test_a_swiss_waits_for_the_away_then_plays_with_those_on_the_site(
    make_user: Callable[[str], User], two_processes: Site
) -> None:
    first, second = two_processes.urls
    watching, gone = ["at_a_table_1", "at_a_table_2"], "gone_baker"
    people = [await database_sync_to_async(make_user)(n) for n in [*watching, gone]]
    others = [await database_sync_to_async(make_user)(f"player{i}") for i in range(2)]
    # A turn-based table of two others, that the two watch (no page of the tournament open).
    table = await database_sync_to_async(seat_people)("midnight-bakery", others, pace="day1")
    tournament = await database_sync_to_async(fast_swiss)(people, AWAY + 2)
    viewers = [
        Person(url, await database_sync_to_async(session_of)(person))
        for url, person in zip((first, second), people[:2], strict=True)
    ]
    try:
        for viewer in viewers:
            await viewer.open_socket(table.pk)
        await until(
            lambda: told(people[2], "you seem away"), "the away entrant was not told before"
        )
        started = await database_sync_to_async(Tournament.objects.get)(pk=tournament.pk)
        assert started.status == Tournament.Status.RUNNING and started.current_round == 0
        assert not await database_sync_to_async(told)(people[0], "you seem away")
        await until(
            lambda: Round.objects.filter(tournament=tournament, number=1).exists(),
            "round 1 was never paired",
        )
        made = await database_sync_to_async(Round.objects.get)(tournament=tournament, number=1)
        away = await database_sync_to_async(Entrant.objects.get)(
            tournament=tournament, user=people[2]
        )
        assert made.skipped == [away.pk]
        seated = await database_sync_to_async(
            lambda: [t.people for t in Table.objects.filter(round=made).exclude(game=None)]
        )()
        assert len(seated) == 1 and away.pk not in seated[0]
        assert await database_sync_to_async(told)(people[2], "started without you")
        after = await database_sync_to_async(Tournament.objects.get)(pk=tournament.pk)
        assert after.status == Tournament.Status.RUNNING and after.current_round == 1
    finally:
        for viewer in viewers:
            await viewer.close()
