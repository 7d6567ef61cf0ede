"""The Moderators group and exactly the permissions it needs (data migration, kept apart)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATORS = "Moderators"

# (app label, codename): find a person and see their games, ratings and reports; deactivate and
# reactivate accounts; abort running games; act on reports; read table chats and hide a line
# (the chat admin's only change). Nothing that edits a user's fields, deletes a game or an
# action, or touches groups and permissions.
PERMISSIONS = [
    ("accounts", "view_user"),
    ("accounts", "deactivate_user"),
    ("accounts", "view_rating"),
    ("games", "view_game"),
    ("games", "abort_game"),
    ("games", "view_seat"),
    ("games", "view_report"),
    ("games", "change_report"),
    ("games", "view_chatmessage"),
    ("games", "change_chatmessage"),
]


def add_group(apps, schema_editor):
    # Permissions are made after all migrations by post_migrate; make them now to use them.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=MODERATORS)
    wanted = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in PERMISSIONS
    ]
    group.permissions.set(wanted)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0004_rating_history_moderation"),
        ("games", "0008_aborted_reports_stat_counts"),
    ]

    operations = [migrations.RunPython(add_group, remove_group)]
