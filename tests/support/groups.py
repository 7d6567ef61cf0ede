"""The groups the data migrations make (Moderators, Chat moderators), for a test that seats a
person in one.

A test that commits (transactional_db, live_server) ends with a flush, and a flush keeps no row a
migration wrote (post_migrate makes the permissions again, not the groups): a later test in the
same process found no group, depending on the order xdist handed the tests out. `group` makes the
group again from its own migrations' lists of permissions when it is gone."""

from __future__ import annotations

import importlib

from django.contrib.auth.models import Group, Permission

MIGRATIONS = "games.migrations."


def permissions_of(name: str) -> list[tuple[str, str]]:
    """(app label, codename) of each permission the group's migrations give it."""
    if name == "Chat moderators":
        chat = importlib.import_module(MIGRATIONS + "0007_chat_moderators_group")
        return [("games", codename) for codename in chat.CODENAMES]
    wanted: list[tuple[str, str]] = []
    for migration in ("0009_moderators_group", "0018_moderators_see_social"):
        wanted += importlib.import_module(MIGRATIONS + migration).PERMISSIONS
    return wanted


def group(name: str) -> Group:
    """The group as its migrations leave it, made again if a flush took it."""
    found = Group.objects.filter(name=name).first()
    if found is not None:
        return found
    made = Group.objects.create(name=name)
    made.permissions.set(
        [
            Permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in permissions_of(name)
        ]
    )
    return made
