"""The thinking pool (games/thinking.py): a search runs in a worker process of its own, at most
THINKING_PROCESSES at once per serving process, and survives a worker that dies."""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games import thinking
from tests.support.thinkers import die_once, niceness, whose


@pytest.fixture(autouse=True)
def _fresh_pool() -> Iterator[None]:
    """Each test starts and ends with no pool."""
    thinking.stop()
    yield
    thinking.stop()


def test_a_search_runs_in_a_worker_process(settings: pytest.FixtureRequest) -> None:
    settings.THINKING_PROCESSES = 1  # type: ignore[attr-defined]
    assert thinking.think(whose) != os.getpid()


def test_none_thinks_in_the_callers_thread(settings: pytest.FixtureRequest) -> None:
    settings.THINKING_PROCESSES = 0  # type: ignore[attr-defined]
    assert thinking.think(whose) == os.getpid()


@pytest.mark.parametrize("cap", [1, 2])
def test_searches_at_once_are_capped_per_process(settings: pytest.FixtureRequest, cap: int) -> None:
    """Eight searches asked from eight threads at once run in at most `cap` workers: the rest
    wait their turn in the pool's queue."""
    settings.THINKING_PROCESSES = cap  # type: ignore[attr-defined]
    with ThreadPoolExecutor(8) as callers:
        workers = set(callers.map(lambda _: thinking.think(whose), range(8)))
    assert os.getpid() not in workers
    assert 1 <= len(workers) <= cap


def test_a_worker_that_dies_breaks_one_search_which_runs_again(
    settings: pytest.FixtureRequest, tmp_path: Path
) -> None:
    settings.THINKING_PROCESSES = 1  # type: ignore[attr-defined]
    first = thinking.think(whose)
    marker = tmp_path / "died"
    survivor = thinking.think(die_once, str(marker))
    assert marker.read_text() == "died"  # the first worker did die
    assert survivor not in (first, os.getpid())  # answered by a new worker
    assert thinking.think(whose) == survivor  # which goes on serving


def test_a_worker_thinks_at_a_lower_priority_than_its_server(
    settings: pytest.FixtureRequest,
) -> None:
    settings.THINKING_PROCESSES = 1  # type: ignore[attr-defined]
    settings.THINKING_NICENESS = 5  # type: ignore[attr-defined]
    assert thinking.think(niceness) == min(os.nice(0) + 5, 19)
