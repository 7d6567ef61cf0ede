"""A live Swiss round's start sends every page of its people on (page.go) before anything else
of the round: each page moved asks for its new table at once, and those requests share the
serving processes' loops with the sends still to go (docs/performance.md, issue 46)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import groups
from games.tournaments import services
from games.tournaments.tests.conftest import entered, rules
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db

Crowd = Callable[[int], list[User]]


def test_a_live_round_sends_its_pages_on_before_its_tables_news(
    clock: Clock,
    crowd: Crowd,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[tuple[str, object]] = []
    monkeypatch.setattr(
        groups, "send_to_group", lambda group, message: sent.append((group, message["type"]))
    )
    people = crowd(8)
    tournament = entered(services.create(None, rules(clock, seats=4, pace="relaxed")), people)
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.start(tournament.pk)
    kinds = [kind for _, kind in sent]
    moved = [i for i, kind in enumerate(kinds) if kind == "page.go"]
    assert sorted(group for group, kind in sent if kind == "page.go") == sorted(
        groups.user_group(p.pk) for p in people
    )
    others = [i for i, kind in enumerate(kinds) if kind != "page.go"]
    assert {"game.started", "game.updated"} <= set(kinds)  # the tables' own news, after
    assert max(moved) < min(others), kinds
