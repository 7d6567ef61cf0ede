"""The log of every action taken at a table: the truth that rebuilds each game from its seed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext

from games.models.table import Game


class Action(models.Model):
    """One action as it was applied: the log that rebuilds every game from its seed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    bot = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq")]

    def __str__(self) -> str:
        # No payload: admin titles and logs would show a pick before its reveal.
        return gettext("%(game)s move %(n)s by seat %(seat)s") % {
            "game": self.game,
            "n": self.seq,
            "seat": self.seat,
        }
