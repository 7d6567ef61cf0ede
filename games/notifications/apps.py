"""Notifications as a Django app: what people are told outside the table (the inbox, its badge,
mails and browser pushes)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "games.notifications"
    label = "notifications"
    verbose_name = _("Notifications")
