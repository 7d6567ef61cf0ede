"""English as the site always wrote it: British dates and numbers (Django's en_GB)."""

from django.conf.locale.en_GB.formats import *  # noqa: F403

# A moment as the pages always wrote it: "7 Dec 2026, 14:05".
DATETIME_FORMAT = "j M Y, H:i"
# A recent moment in a list (the lobby's finished games): "7 Dec, 14:05".
SHORT_DATETIME_FORMAT = "j M, H:i"
