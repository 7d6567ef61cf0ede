"""Sweeps of several processes at the same instant, each on its own connection (PostgreSQL):
the site gets one house table."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.housetable import services
from games.housetable.models import HouseTable
from games.models import Game
from tests.conftest import needs_env

pytestmark = [needs_env("DATABASE_URL"), pytest.mark.django_db(transaction=True)]

SWEEPS = 3


def sweeps_at_once() -> list[Game | None]:
    """SWEEPS sweeps released together from a barrier; what each started."""
    barrier = threading.Barrier(SWEEPS)
    started: list[Game | None] = []
    failed: list[BaseException] = []

    def one() -> None:
        try:
            barrier.wait()
            started.append(services.keep_going())
        except BaseException as error:  # reported by the test, not lost in the thread
            failed.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(SWEEPS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, failed
    return started


@pytest.mark.parametrize("first", [True, False], ids=["first-ever", "after-the-last-ended"])
def test_sweeps_at_the_same_instant_start_one_house_table(first: bool) -> None:
    if not first:  # the site's row is there: only its lock keeps the sweeps apart
        HouseTable.objects.create(pk=HouseTable.SITE)
    started = sweeps_at_once()
    assert len([g for g in started if g is not None]) == 1
    assert Game.objects.filter(status=Game.Status.RUNNING).count() == 1
    assert sweeps_at_once() == [None] * SWEEPS
    assert Game.objects.count() == 1
