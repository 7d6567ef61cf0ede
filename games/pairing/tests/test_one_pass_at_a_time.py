"""Passes of one pool at the same instant, each on its own connection (PostgreSQL): one pairing,
and nobody seated twice."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

import pytest
from django.db import connection

from accounts.models import User
from games.models import Seat
from games.pairing import services
from games.pairing.models import Seek
from tests.conftest import needs_env

pytestmark = [needs_env("DATABASE_URL"), pytest.mark.django_db(transaction=True)]

PASSES = 3
ROUNDS = 4


def passes_at_once() -> list[list[services.Paired]]:
    """PASSES passes of the Cakehalla fast pool, released together from a barrier."""
    barrier = threading.Barrier(PASSES)
    made: list[list[services.Paired]] = []
    failed: list[BaseException] = []

    def one() -> None:
        try:
            barrier.wait()
            made.append(services.pass_pool("cakehalla", "fast"))
        except BaseException as error:  # reported by the test, not lost in the thread
            failed.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(PASSES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, failed
    return made


def test_passes_at_the_same_instant_make_one_pairing_and_seat_nobody_twice(
    make_user: Callable[[str], User],
) -> None:
    for round_ in range(ROUNDS):
        people = [make_user(f"baker{round_}_{i}") for i in range(8)]
        for person in people:
            services.look(person, "cakehalla", "fast", 2, 2)
        made = passes_at_once()
        assert sorted(len(tables) for tables in made) == [0] * (PASSES - 1) + [4]
        seats = Counter(Seat.objects.filter(user__in=people).values_list("user_id", flat=True))
        assert seats == Counter({p.pk: 1 for p in people})
        assert not Seek.objects.exists()
