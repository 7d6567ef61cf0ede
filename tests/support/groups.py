"""The groups the data migrations make (Moderators, Chat moderators), for a test that seats a
person in one.

A test that commits (transactional_db, live_server) ends with a flush, and a flush keeps no row a
migration wrote (post_migrate makes the permissions again, not the groups): a later test in the
same process found no group, depending on the order xdist handed the tests out. Each process
remembers the groups as its test database's migrations left them, as the migrate that makes the
test database ends (post_migrate: `remember`, connected below; a run none of whose tests uses a
database, as the browser tests alone, makes none and reads none), and `group` makes one again
from that when it is gone."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db.models.signals import post_migrate

MIGRATED: dict[str, list[tuple[str, str]]] = {}
"""Each group's permissions, (app label, codename), as the migrations left them."""


def remember(using: str = "default", **_: Any) -> None:
    """Read the groups as migrated, once a process: at the first post_migrate, sent as the
    migrate making the test database ends (a flush sends it again, the groups gone: not read)."""
    if MIGRATED:
        return
    for found in Group.objects.using(using).all():
        MIGRATED[found.name] = list(
            found.permissions.values_list("content_type__app_label", "codename")
        )


post_migrate.connect(remember, dispatch_uid="tests.support.groups.remember")


def group(name: str) -> Group:
    """The group as its migrations leave it, made again if a flush took it."""
    found = Group.objects.filter(name=name).first()
    if found is not None:
        return found
    made = Group.objects.create(name=name)
    made.permissions.set(
        [
            Permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in MIGRATED[name]
        ]
    )
    return made
