"""Notifications as a Django app: what people are told outside the table (the inbox, its badge,
mails and browser pushes)."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "games.notifications"
    label = "notifications"
    verbose_name = "Notifications"
