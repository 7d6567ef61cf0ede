"""A group a committing test's flush took is made again as the migrations left it
(tests/support/groups.py), so a moderator's tests do not depend on the order they run in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from tests.support.groups import group


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Moderators", "Chat moderators"])
def test_a_group_a_flush_took_is_made_again_with_its_migrated_permissions(name: str) -> None:
    def permissions(found: Group) -> list[tuple[str, str]]:
        return sorted(found.permissions.values_list("content_type__app_label", "codename"))

    migrated = permissions(Group.objects.get(name=name))
    Group.objects.all().delete()  # as a flush leaves them
    assert permissions(group(name)) == migrated
    assert ("notifications", "view_notification") in migrated or name == "Chat moderators"
    assert group(name).pk == Group.objects.get(name=name).pk  # made once, then found
