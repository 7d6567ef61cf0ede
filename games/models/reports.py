"""Moderation's rows: a player's report of another at one table."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models.people import optional_person
from games.models.table import Game


class Report(models.Model):
    """A player's report of another player at one table, for the moderators."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abusive or offensive")
        NAME = "name", _("Offensive name")
        STALLING = "stalling", _("Stalling or leaving the game")
        CHEATING = "cheating", _("Cheating or colluding")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("a report", "Open")
        DISMISSED = "dismissed", pgettext_lazy("a report", "Dismissed")
        ACTED = "acted", pgettext_lazy("a report", "Acted on")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_against"
    )
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=500, blank=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    handled_by = optional_person("reports_handled")
    handled_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(
        max_length=500, blank=True, help_text=_("What the moderator did.")
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["reporter", "-created_at"], name="reports_by_reporter")]

    def __str__(self) -> str:
        return gettext("%(reporter)s reported %(reported)s at %(game)s") % {
            "reporter": self.reporter,
            "reported": self.reported,
            "game": self.game,
        }
