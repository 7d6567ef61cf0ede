"""Reviews as a Django app: its model, pages, templates and the job that works the queued
reviews (registered with everyone else's in games/wiring.py)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewsConfig(AppConfig):
    name = "games.reviews"
    label = "reviews"
    verbose_name = _("Reviews")
