"""The groups the data migrations make (Moderators, Chat moderators), for a test that seats a
person in one.

A test that commits (transactional_db, live_server) ends with a flush, and a flush keeps no row a
migration wrote (post_migrate makes the permissions again, not the groups): a later test in the
same process found no group, depending on the order xdist handed the tests out. Each process
remembers the groups as its test database's migrations left them, before its first test
(tests/fixtures.py: migrated_groups), and `group` makes one again from that when it is gone."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

MIGRATED: dict[str, list[tuple[str, str]]] = {}
"""Each group's permissions, (app label, codename), as the migrations left them."""


def remember() -> None:
    """Read the groups as migrated (once a process, before any test has flushed them)."""
    for found in Group.objects.all():
        MIGRATED[found.name] = list(
            found.permissions.values_list("content_type__app_label", "codename")
        )


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
