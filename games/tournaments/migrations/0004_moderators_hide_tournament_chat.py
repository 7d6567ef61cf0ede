"""Moderators and chat moderators see tournament chat lines in admin and hide them (the change
permission serves that action only: every field stays read only). Data migration, kept apart."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUPS = ["Moderators", "Chat moderators"]

PERMISSIONS = [
    ("tournaments", "view_chatline"),
    ("tournaments", "change_chatline"),
]


def wanted(apps):
    Permission = apps.get_model("auth", "Permission")
    return [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in PERMISSIONS
    ]


def add_permissions(apps, schema_editor):
    # Permissions are made after all migrations by post_migrate; make them now to use them.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    for name in GROUPS:
        group, _ = apps.get_model("auth", "Group").objects.get_or_create(name=name)
        group.permissions.add(*wanted(apps))


def remove_permissions(apps, schema_editor):
    for group in apps.get_model("auth", "Group").objects.filter(name__in=GROUPS):
        group.permissions.remove(*wanted(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0007_chat_moderators_group"),
        ("tournaments", "0003_chat_lines"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
