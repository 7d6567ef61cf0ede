"""accounts 0020 adds User.muted_someone and sets it for everyone who has a mute already, so a
database migrated with mutes in it keeps showing their lists (a table's page reads whom a person
muted only when it is set). (Every test database is built from nothing by the migrations, so
the path with no mutes runs in each run too.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from games.models import Mute

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0019_language")]


def migrate_to(targets: list[tuple[str, str]] | None = None) -> None:
    """The database migrated to these targets (None: every app's newest)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


@pytest.fixture
def before_the_flag() -> Iterator[None]:
    """The database without User.muted_someone; put back to the newest schema after the test."""
    migrate_to(BEFORE)
    try:
        yield
    finally:
        migrate_to()


def test_people_with_a_mute_are_flagged_by_the_migration(
    player: User, rival: User, before_the_flag: None
) -> None:
    """(The people are made first: the model has the flag, the old schema has not.)"""
    Mute.objects.create(user_id=rival.pk, muted_id=player.pk)  # its table is as it was

    migrate_to()

    assert User.objects.get(pk=rival.pk).muted_someone
    assert not User.objects.get(pk=player.pk).muted_someone
