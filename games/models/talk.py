"""A table's talk: its chat lines, and the people one person no longer hears."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models.table import Game


class ChatMessage(models.Model):
    """One line of a table's chat: stored, never part of the Action log."""

    MAX_LENGTH = 300

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    hidden = models.BooleanField(
        default=False, help_text=_("Hidden by a moderator: it vanishes from every screen.")
    )

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["author", "created_at"], name="chat_by_author")]

    def __str__(self) -> str:
        return f"{self.author} at {self.game}: {self.text[:40]}"


class Mute(models.Model):
    """One person no longer sees another's chat lines, at every table."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair")]

    def __str__(self) -> str:
        return gettext("%(user)s mutes %(muted)s") % {"user": self.user, "muted": self.muted}
