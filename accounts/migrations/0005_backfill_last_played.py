"""Each rating's last rated game, from the finished games (data migration, kept apart)."""

from django.db import migrations
from django.db.models import Max, OuterRef, Subquery


def backfill(apps, schema_editor):
    Rating = apps.get_model("accounts", "Rating")
    Seat = apps.get_model("games", "Seat")
    last = (
        Seat.objects.filter(
            user_id=OuterRef("user_id"), game__kind=OuterRef("kind"), game__status="over"
        )
        .values("user_id")
        .annotate(at=Max("game__finished_at"))
        .values("at")[:1]
    )
    Rating.objects.filter(last_played_at=None).update(last_played_at=Subquery(last))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_rating_history_moderation"),
        ("games", "0003_seat_resigned"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
