"""Data: a "Chat moderators" group that may see and hide table chat lines in admin."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Chat moderators"
CODENAMES = ["view_chatmessage", "change_chatmessage"]


def add_group(apps, schema_editor):
    games = apps.get_app_config("games")
    games.models_module = True  # the permissions are made after migrations; make them now
    create_permissions(games, apps=apps, verbosity=0)
    games.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="games", codename__in=CODENAMES)
    )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_watchers_chat_rematch"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(add_group, remove_group)]
