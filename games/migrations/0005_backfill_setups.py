"""Backfill what every started game was dealt, from its seed, with the deal of that day.

The setup comes from `_legacy_deal` (a frozen copy of the engines' deal from the seed as it was
before setups were stored), never from today's engines: Cakehalla's deal changed afterwards
(its unused seat-order shuffle was dropped), and a backfill run later must still write what
those games were really dealt. Every such game was played under rules version 1.
"""

from django.db import migrations

from games.migrations._legacy_deal import legacy_setup

LEGACY_RULES = 1
BATCH = 500


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    started = Game.objects.filter(setup__isnull=True, snapshot__isnull=False).order_by("pk")
    changed = []
    for game in started.iterator(chunk_size=BATCH):
        players = Seat.objects.filter(game_id=game.pk, position__isnull=False).count()
        setup = legacy_setup(game.kind, players, game.seed)
        if setup is None:
            continue
        game.setup = setup
        game.rules_version = LEGACY_RULES
        changed.append(game)
        if len(changed) >= BATCH:
            Game.objects.bulk_update(changed, ["setup", "rules_version"])
            changed = []
    Game.objects.bulk_update(changed, ["setup", "rules_version"])


class Migration(migrations.Migration):
    dependencies = [("games", "0004_setup_and_rules_version")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
