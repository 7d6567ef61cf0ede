"""The people looking for a game (Seek), and the rows a pairing pass locks (Pool)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Pool(models.Model):
    """One game and pace: a pass locks this row, so one pass at a time pairs its people, in
    every process (made the first time someone looks there)."""

    kind = models.CharField(max_length=40)
    pace = models.CharField(max_length=10, choices=Game.Pace.choices)
    passed_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When a pass last seated or let go someone.")
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "pace"], name="one_pool_a_pace")]

    def __str__(self) -> str:
        return f"{self.kind} at {self.pace}"


class Seek(models.Model):
    """A person looking for a game: which, at what pace, how many at the table, since when."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek"
    )
    kind = models.CharField(max_length=40)
    pace = models.CharField(max_length=10, choices=Game.Pace.choices)
    fewest = models.PositiveSmallIntegerField(help_text=_("The fewest players they accept."))
    most = models.PositiveSmallIntegerField(help_text=_("The most players they accept."))
    rating = models.IntegerField(
        help_text=_("Their rating at this game when they started looking.")
    )
    bots_after = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Seconds after which bots may fill the table (or never)."),
    )
    bots_welcome = models.BooleanField(
        default=False,
        help_text=_("Bot accounts (programs playing through the API) may be seated with them."),
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(
        default=timezone.now, help_text=_("When their waiting page last said it is still open.")
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["kind", "pace"], name="seeks_of_a_pool")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(fewest__lte=models.F("most")), name="fewest_at_most_most"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(user)s looks for %(game)s at %(pace)s") % {
            "user": self.user,
            "game": self.kind,
            "pace": self.pace,
        }
