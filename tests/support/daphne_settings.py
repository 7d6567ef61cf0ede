"""Settings of the Daphne processes a test starts: the site's own (DEBUG off), but static files
are named as they are, since no test runs collectstatic for the hashed manifest."""

from bakery_site.settings import *  # noqa: F403
from bakery_site.settings import STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
