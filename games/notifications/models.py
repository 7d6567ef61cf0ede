"""Notifications: what a person is told outside the table, and the browsers they are pushed to.

The rows were the games app's until they moved here; they keep their tables (db_table), so no
data moved (migrations/0001_notifications.py).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Notification(models.Model):
    """One thing a person is told outside the table: in the inbox, by mail, by Web Push.

    `key` names the event for its person (a turn, an invitation, ...): unique per recipient, so
    processes that hear of the same event at once store one row (games/notifications/services.py).
    """

    class Kind(models.TextChoices):
        TURN = "turn", _("Your move")
        INVITE = "invite", _("Invitations")
        REMATCH = "rematch", _("Rematches offered")
        ENDED = "ended", _("Games ended")
        FRIEND = "friend", _("Friend requests")
        TOURNAMENT = "tournament", _("Tournaments")

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    key = models.CharField(max_length=100, help_text=_("The event, once per recipient."))
    TEXT_LENGTH = 200
    text = models.CharField(max_length=TEXT_LENGTH)
    url = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_notification"
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["recipient", "key"], name="one_notification_per_event")
        ]
        indexes = [models.Index(fields=["recipient", "read_at"], name="notifications_unread")]

    def __str__(self) -> str:
        return f"{self.recipient}: {self.text}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription of a person (what its PushManager gave the page)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200, help_text=_("The browser's public key."))
    auth = models.CharField(max_length=100, help_text=_("The browser's auth secret."))
    created_at = models.DateTimeField(auto_now_add=True)
    failures = models.PositiveSmallIntegerField(
        default=0, help_text=_("Pushes in a row that failed; a success clears it.")
    )
    resting_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "No push to this browser before then: its push service asked so (Retry-After)."
        ),
    )
    session = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",  # the code before this column inserts rows without it (a rolling deploy)
        db_index=True,
        help_text=_(
            "A digest of the log-in session that subscribed it: logging out there drops it."
        ),
    )

    class Meta:
        db_table = "games_pushsubscription"

    def __str__(self) -> str:
        return f"a browser of {self.user}"

    @property
    def info(self) -> dict[str, Any]:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
