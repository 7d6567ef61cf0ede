"""A person's guided first game of one kind (moved here from the games app: same table)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext

from games.models import Game


class Tutorial(models.Model):
    """A person's guided first game of one kind: an unrated table against one bot from the kind's
    fixed deal (games/tutorial/services.py). Finished when its game is over; it never counts in
    ratings, leaderboards or stats (its game is `guided`, which the core reads)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="tutorial"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tutorials"
    )
    kind = models.CharField(max_length=40, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_tutorial"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return gettext("%(user)s's tutorial of %(game)s") % {"user": self.user, "game": self.kind}
