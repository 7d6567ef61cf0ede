"""Notification and PushSubscription moved to the notifications app (games/notifications/): they
leave the games app's state only. Their tables stay as they are (games_notification,
games_pushsubscription, named by db_table there), so no data moves; the notifications app's
0001 takes them into its state."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_push_subscription_failures'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='Notification'),
                migrations.DeleteModel(name='PushSubscription'),
            ],
            database_operations=[],
        ),
    ]
