"""Fixtures the web tests share."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import Group

from accounts.models import User
from tests.web.clock import Clock, patched_clock


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The web tests read the bots' answers as soon as a service returns: bots move inline in
    this folder (tests/fixtures.py: bots_inline). test_bot_worker.py, test_deadlines.py and
    test_push_safety.py put the runner's path back to test it."""


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The server's time, moved forward by hand (tests/web/clock.py)."""
    return patched_clock(monkeypatch)


@pytest.fixture
def moderator(make_user: Callable[[str], User]) -> User:
    """Staff in the Moderators group (made by a migration), not a superuser."""
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.groups.add(Group.objects.get(name="Moderators"))
    return User.objects.get(pk=user.pk)  # fresh: no cached permissions
