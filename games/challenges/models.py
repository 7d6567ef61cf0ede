"""A challenge: one person asks another to a table of a game, pace and size, rated or not."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Challenge(models.Model):
    """One challenge, open until the challenged answers, the challenger cancels it, or it lapses
    unanswered at `expires_at` (then it is expired: `lapsed` says so before anything stores it)."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("a challenge", "Waiting for an answer")
        ACCEPTED = "accepted", pgettext_lazy("a challenge", "Accepted")
        DECLINED = "declined", pgettext_lazy("a challenge", "Declined")
        CANCELLED = "cancelled", pgettext_lazy("a challenge", "Cancelled")
        EXPIRED = "expired", pgettext_lazy("a challenge", "Expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    kind = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField(
        help_text=_("The table's seats: the two of them, and house bots in the others.")
    )
    pace = models.CharField(max_length=10, choices=Game.Pace.choices)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenges"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Unanswered by then, it lapses (empty: never).")
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["challenger", "status"], name="challenges_open_made")]

    def __str__(self) -> str:
        return gettext("%(challenger)s challenges %(challenged)s to %(game)s") % {
            "challenger": self.challenger,
            "challenged": self.challenged,
            "game": self.kind,
        }

    def get_absolute_url(self) -> str:
        return reverse("games:challenge", args=[self.pk])

    def lapsed(self, at: datetime | None = None) -> bool:
        """Open, but past its expiry: nobody may answer it any more."""
        at = at or timezone.now()
        return (
            self.status == self.Status.OPEN
            and self.expires_at is not None
            and self.expires_at <= at
        )

    def status_now(self, at: datetime | None = None) -> str:
        """Its status as it stands: an open one past its expiry is expired."""
        return str(self.Status.EXPIRED if self.lapsed(at) else self.status)
