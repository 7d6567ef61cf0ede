"""Tutorial, moved here from the games app (its 0024 let it go): made in this app's state only,
on the table it already has (games_tutorial, by db_table), so no data moves. Its content type
moves with it, so admin's log lines and any permission keep pointing at it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor, old='games', new='tutorial'):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    if not ContentType.objects.filter(app_label=new, model='tutorial').exists():
        ContentType.objects.filter(app_label=old, model='tutorial').update(app_label=new)


def move_content_type_back(apps, schema_editor):
    move_content_type(apps, schema_editor, old='tutorial', new='games')


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0024_tutorials_moved_out'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Tutorial',
                    fields=[
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='tutorial', serialize=False, to='games.game')),
                        ('kind', models.CharField(db_index=True, max_length=40)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tutorials', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_tutorial',
                        'ordering': ['-created_at'],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
