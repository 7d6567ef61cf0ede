"""Fixtures the web tests share."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import Group

from accounts.models import User
from tests.web.clock import Clock, patched_clock


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
