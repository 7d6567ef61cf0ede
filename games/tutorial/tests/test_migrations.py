"""The tutorial's model moved from the games app to its own (games 0024, tutorial 0001) on the
table it had: a database at the schema before the move keeps its tutorials, their tables are
flagged `guided` for the core, and the content type follows the model. (Every test database is
built from nothing by the migrations, so that path runs in each run too.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from games.models import Game
from games.tutorial.models import Tutorial

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0023_socket_caps_everywhere")]


def migrate_to(targets: list[tuple[str, str]] | None = None) -> MigrationExecutor:
    """The database migrated to these targets (None: every app's newest); the executor."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())
    return MigrationExecutor(connection)


@pytest.fixture
def at_the_old_schema() -> Iterator[None]:
    """The database as it was before the move; put back to the newest schema after the test."""
    migrate_to(BEFORE)
    try:
        yield
    finally:
        migrate_to()


def test_a_tutorial_made_before_the_move_is_the_tutorial_apps_after_it(
    at_the_old_schema: None, player: User
) -> None:
    old = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    old_game = old.get_model("games", "Game")
    game = old_game.objects.create(kind="midnight-bakery", host_id=player.pk, capacity=2)
    other = old_game.objects.create(kind="midnight-bakery", host_id=player.pk, capacity=2)
    old.get_model("games", "Tutorial").objects.create(
        game_id=game.pk, user_id=player.pk, kind="midnight-bakery"
    )
    ContentType.objects.filter(model="tutorial").delete()
    old_type = ContentType.objects.create(app_label="games", model="tutorial")

    migrate_to()

    moved = Tutorial.objects.get()
    assert (moved.game_id, moved.user_id, moved.kind) == (game.pk, player.pk, "midnight-bakery")
    assert Game.objects.get(pk=game.pk).guided  # what the core reads now
    assert not Game.objects.get(pk=other.pk).guided
    assert ContentType.objects.get(pk=old_type.pk).app_label == "tutorial"
    assert ContentType.objects.get_for_model(Tutorial).pk == old_type.pk


def test_the_models_and_the_migrations_agree() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
