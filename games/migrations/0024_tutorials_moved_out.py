"""A tutorial's table says so itself (Game.guided), so the tables' core leaves it out of lists,
counts and absence without knowing the tutorial app; the flag is set from the tutorials there
are. Then Tutorial leaves the games app's state only: its table stays as it is (games_tutorial,
named by db_table in games/tutorial/models.py), and the tutorial app's 0001 takes it."""

from django.db import migrations, models


def flag_guided(apps, schema_editor):
    Game = apps.get_model('games', 'Game')
    Tutorial = apps.get_model('games', 'Tutorial')
    Game.objects.filter(pk__in=Tutorial.objects.values('game_id')).update(guided=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0023_socket_caps_everywhere'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='guided',
            field=models.BooleanField(default=False, editable=False, help_text='A guided first game (games/tutorial/): listed nowhere, counted in no rating or stat, and it waits for its learner however long they are away.'),
        ),
        migrations.RunPython(flag_guided, migrations.RunPython.noop),
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='Tutorial')],
            database_operations=[],
        ),
    ]
