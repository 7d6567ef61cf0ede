"""Moderators see the OAuth2 apps and their tokens and codes in admin (the toolkit's own admin,
credentials masked, and stored only as digests; its "Revoke selected" actions revoke tokens),
and may delete an app, every token it holds with it (accounts/oauth/admin.py): data migration,
kept apart, as games/migrations/0018_moderators_see_social.py."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATORS = "Moderators"

PERMISSIONS = [
    ("oauth2_provider", "view_application"),
    ("oauth2_provider", "delete_application"),
    ("oauth2_provider", "view_accesstoken"),
    ("oauth2_provider", "view_refreshtoken"),
    ("oauth2_provider", "view_grant"),
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
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name=MODERATORS)
    group.permissions.add(*wanted(apps))


def remove_permissions(apps, schema_editor):
    group = apps.get_model("auth", "Group").objects.filter(name=MODERATORS).first()
    if group is not None:
        group.permissions.remove(*wanted(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0020_user_muted_someone"),
        ("oauth2_provider", "0022_refreshtoken_token_family_index"),
        # After the migration that sets the group's permissions (games 0009), not before it.
        ("games", "0018_moderators_see_social"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
