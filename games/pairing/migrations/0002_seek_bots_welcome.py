from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("pairing", "0001_seeks_and_pools")]

    operations = [
        migrations.AddField(
            model_name="seek",
            name="bots_welcome",
            field=models.BooleanField(
                default=False,
                help_text="Bot accounts (programs playing through the API) may be seated with them.",
            ),
        ),
    ]
