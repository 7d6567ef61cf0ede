"""User.muted_someone: whether the person ever muted someone in a table's chat, set by their first
mute (games/services/chat.py: mute) and never unset, so a table's page of a person who never
muted anyone reads no list of whom they muted (a Swiss round's 200 fresh pages). Set here for
everyone who has a mute already (the games' Mute rows, read by name: accounts imports no game
code)."""

from django.db import migrations, models


def flag_muters(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Mute = apps.get_model("games", "Mute")
    User.objects.filter(pk__in=Mute.objects.values("user_id")).update(muted_someone=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0019_language"),
        ("games", "0006_watchers_chat_rematch"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="muted_someone",
            field=models.BooleanField(
                default=False,
                editable=False,
                help_text="The person muted someone in a chat once (set by the first mute, never unset): a table's page of a person who never did reads no list of whom they muted.",
            ),
        ),
        migrations.RunPython(flag_muters, migrations.RunPython.noop),
    ]
