"""Game.chatted: whether a line was ever written in the table's chat, set by the first line
(games/services/chat.py: say), so a fresh table's pages read no chat lines. Set here for every
table that has a line already."""

from django.db import migrations, models


def flag_chatted(apps, schema_editor):
    Game = apps.get_model('games', 'Game')
    ChatMessage = apps.get_model('games', 'ChatMessage')
    Game.objects.filter(pk__in=ChatMessage.objects.values('game_id')).update(chatted=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0024_tutorials_moved_out'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='chatted',
            field=models.BooleanField(default=False, editable=False, help_text="A line was written in the table chat once: a table whose chat never had one reads no chat lines for its pages (a Swiss round's 200 fresh tables)."),
        ),
        migrations.RunPython(flag_chatted, migrations.RunPython.noop),
    ]
