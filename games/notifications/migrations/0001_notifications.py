"""Notification and PushSubscription, moved here from the games app (its 0022 let them go): made
in this app's state only, on the tables they already have (db_table), so no data moves. Their
content types move with them, so the Moderators' permissions on notifications (games 0018) and
admin's log lines keep pointing at them."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ['notification', 'pushsubscription']


def move_content_types(apps, schema_editor, old='games', new='notifications'):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    for model in MOVED:
        if not ContentType.objects.filter(app_label=new, model=model).exists():
            ContentType.objects.filter(app_label=old, model=model).update(app_label=new)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, old='notifications', new='games')


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0022_notifications_moved_out'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Notification',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('turn', 'Your move'), ('invite', 'Invitations'), ('rematch', 'Rematches offered'), ('ended', 'Games ended'), ('friend', 'Friend requests'), ('tournament', 'Tournaments')], max_length=10)),
                        ('key', models.CharField(help_text='The event, once per recipient.', max_length=100)),
                        ('text', models.CharField(max_length=200)),
                        ('url', models.CharField(max_length=200)),
                        ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ('read_at', models.DateTimeField(blank=True, null=True)),
                        ('emailed_at', models.DateTimeField(blank=True, null=True)),
                        ('pushed_at', models.DateTimeField(blank=True, null=True)),
                        ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to='games.game')),
                        ('recipient', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_notification',
                        'ordering': ['-created_at', '-pk'],
                        'indexes': [models.Index(fields=['recipient', 'read_at'], name='notifications_unread')],
                        'constraints': [models.UniqueConstraint(fields=('recipient', 'key'), name='one_notification_per_event')],
                    },
                ),
                migrations.CreateModel(
                    name='PushSubscription',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('endpoint', models.URLField(max_length=1000, unique=True)),
                        ('p256dh', models.CharField(help_text="The browser's public key.", max_length=200)),
                        ('auth', models.CharField(help_text="The browser's auth secret.", max_length=100)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('failures', models.PositiveSmallIntegerField(default=0, help_text='Pushes in a row that failed; a success clears it.')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_subscriptions', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_pushsubscription',
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
