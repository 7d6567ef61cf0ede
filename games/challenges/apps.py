"""Challenges as a Django app: a person (or a bot account, through the API) challenges another
to a table; the challenged accepts or declines on the site or through the API."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChallengesConfig(AppConfig):
    name = "games.challenges"
    label = "challenges"
    verbose_name = _("Challenges")
