"""Vacations as a Django app: its pages, form, templates and the sweep that tells the tables a
vacation began or ended (registered with everyone else's in games/wiring.py). Its model stays in
accounts (accounts.models.Vacation, with the yearly allowance): the clocks under the services
read it to stand a clock still, and they may not import a feature above them."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VacationConfig(AppConfig):
    name = "games.vacation"
    label = "vacation"
    verbose_name = _("Vacations")
