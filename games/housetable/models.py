"""The site's one house table row, which each sweep locks (only games.housetable.services
changes it)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class HouseTable(models.Model):
    """The house table of the site: one row (pk SITE), locked by whichever process looks whether
    to start a game, so the site shows one at a time; it names the game it shows."""

    SITE = 1

    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The house bots' game the lobby shows (or last showed)."),
    )
    started = models.PositiveIntegerField(default=0, help_text=_("House games started so far."))

    def __str__(self) -> str:
        return f"the house table ({self.game or 'no game yet'})"
