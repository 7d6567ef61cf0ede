"""Presence: a row per open (or lately closed) socket, seen by every server process."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.table import Game


class TableSocket(models.Model):
    """One open (or lately closed) socket at a table, seen by every server process; or one of
    the site's other sockets (a waiting page's, a tournament page's: no game, its `place`), kept
    only while open, for the caps on open sockets (games/live/caps.py).

    Its process renews `seen_at` every sweep while the socket is open; a closed socket keeps its
    row with the time it closed, so its person stays "here" through a short drop. A row that
    stopped being renewed belongs to a process that died.
    """

    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="sockets"
    )
    place = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text=_("A socket not at a table: its page (pairing, tournament:12)."),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    channel = models.CharField(max_length=200, unique=True)
    process = models.CharField(max_length=40, db_index=True)
    open = models.BooleanField(default=True)
    seen_at = models.DateTimeField(db_index=True)
    told = models.CharField(
        max_length=8,
        default="here",
        help_text=_("What the table's screens were last told of this socket: here, dropped, away."),
    )
    owner = models.CharField(
        max_length=40,
        blank=True,
        default="",
        db_index=True,
        help_text=_(
            "Whose socket, for the caps on open sockets: a digest of its session (of its "
            "address for a guest without one)."
        ),
    )
    address = models.CharField(
        max_length=40,
        blank=True,
        default="",
        db_index=True,
        help_text=_("A digest of the socket's client address, for the caps on open sockets."),
    )

    def __str__(self) -> str:
        return f"socket of {self.user or 'a guest'} at {self.place or f'game {self.game_id}'}"
