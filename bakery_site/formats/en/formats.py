"""English as the site always wrote it: British dates and numbers (Django's en_GB)."""

from django.conf.locale.en_GB.formats import *  # noqa: F403
