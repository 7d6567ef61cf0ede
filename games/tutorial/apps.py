"""The tutorial as a Django app: its model, pages, templates, script and the hooks by which the
tables' core leaves a guided game out of lists and counts (Game.guided, set here) and shows its
step (games/wiring.py registers nothing for it: the core reads the flag, the pages load this
app's template tags)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TutorialConfig(AppConfig):
    name = "games.tutorial"
    label = "tutorial"
    verbose_name = _("Tutorial")
