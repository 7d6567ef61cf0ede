"""Skeletons read digits as letters and leave out separators now (accounts/names.py): every
account's and held name's is computed again, and the accounts' are unique from here on, so two
sign-ups at once cannot both take a look-alike. Accounts that already pass for one another are
kept as they are: the oldest keeps the skeleton, each later one is left without (NULL, which the
unique index allows any number of), and a new look-alike of any of them is refused. And
Vacation.days's help text says what it is now that the allowance counts hours."""

from django.db import migrations, models

from accounts.names import skeleton

BATCH = 2000


def skeletons_again(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Every account's skeleton, oldest account first; a later look-alike gets none."""
    user = apps.get_model("accounts", "User")
    taken: set[str] = set()
    batch = []
    for person in user.objects.order_by("pk").only("pk", "username").iterator(chunk_size=BATCH):
        look = skeleton(person.username)
        person.name_skeleton = None if look in taken else look
        taken.add(look)
        batch.append(person)
        if len(batch) == BATCH:
            user.objects.bulk_update(batch, ["name_skeleton"])
            batch = []
    user.objects.bulk_update(batch, ["name_skeleton"])
    held_name = apps.get_model("accounts", "HeldName")
    held = list(held_name.objects.only("pk", "name"))
    for row in held:
        row.name_skeleton = skeleton(row.name)
    held_name.objects.bulk_update(held, ["name_skeleton"], batch_size=BATCH)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0015_mail_tournament"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="name_skeleton",
            field=models.CharField(db_index=True, editable=False, max_length=150, null=True),
        ),
        migrations.AddField(
            model_name="heldname",
            name="name_skeleton",
            field=models.CharField(
                db_default="",
                db_index=True,
                default="",
                help_text="The name as it looks (accounts/names.py): its look-alikes are held too.",
                max_length=150,
            ),
        ),
        migrations.RunPython(skeletons_again, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="name_skeleton",
            field=models.CharField(
                editable=False,
                help_text="The username as it looks (accounts/names.py): a new name with the same "
                "skeleton passes for this one and is refused, by this unique index too. Empty only "
                "for a look-alike of an older account kept from before a rule (migration 0016).",
                max_length=150,
                null=True,
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="vacation",
            name="days",
            field=models.PositiveSmallIntegerField(
                help_text="How many days it lasts (once ended early, the days it had begun). The "
                "yearly allowance counts the hours from its start to its end instead "
                "(vacation_hours_left)."
            ),
        ),
    ]
