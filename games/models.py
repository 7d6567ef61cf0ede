"""Games, their seats and the log of every action taken at them."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from games import catalog


def new_seed() -> int:
    """A fresh random seed that fits a signed 64-bit column."""
    return secrets.randbits(62)


def new_invite() -> str:
    """A token for a private table's invite link."""
    return secrets.token_urlsafe(12)


class Game(models.Model):
    """One table of one game: lobby settings, the seed, and a snapshot cache of the state."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RUNNING = "running", "Running"
        OVER = "over", "Over"
        CANCELLED = "cancelled", "Cancelled"

    class Pace(models.TextChoices):
        RELAXED = "relaxed", "Relaxed (no clock)"
        NORMAL = "normal", "Normal (60 s a move, 120 s bank)"
        FAST = "fast", "Fast (20 s a move, 60 s bank)"

    kind = models.CharField(max_length=40, choices=catalog.choices(), db_index=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    capacity = models.PositiveSmallIntegerField(help_text="How many seats the table offers.")
    options = models.JSONField(default=dict, blank=True)
    private = models.BooleanField(default=False, help_text="Reachable only by the invite link.")
    pace = models.CharField(
        max_length=10, choices=Pace.choices, default=Pace.RELAXED, help_text="The move clock."
    )
    notices = models.JSONField(
        default=list, blank=True, help_text="The table's recent public notices (stand-ins, seats)."
    )
    invite = models.CharField(max_length=32, default=new_invite, editable=False)
    seed = models.BigIntegerField(default=new_seed, editable=False)
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every change.")
    moves = models.PositiveIntegerField(default=0, help_text="How many Action rows it has.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.spec.name} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def spec(self) -> catalog.GameSpec:
        """The catalog entry of this game's kind."""
        return catalog.get(self.kind)

    @property
    def invite_url(self) -> str:
        """The table's link with its invite token."""
        return f"{self.get_absolute_url()}?invite={self.invite}"


LIVE = (Game.Status.OPEN, Game.Status.RUNNING)
"""The statuses of a table still in play: listed in the lobby and on profiles."""


class Seat(models.Model):
    """A person or bot at a table; the position is drawn when the game starts."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    bot = models.CharField(max_length=20, blank=True, help_text="Bot level; empty for a person.")
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    results_seen = models.PositiveSmallIntegerField(
        default=0, help_text="How many bake results this seat has closed."
    )
    score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.BooleanField(default=False)
    breakdown = models.JSONField(null=True, blank=True, help_text="Results detail per game.")
    resigned = models.BooleanField(
        default=False, help_text="The person gave up; a house bot plays the seat to the end."
    )
    handed_over = models.CharField(
        max_length=20,
        blank=True,
        help_text="Why a house bot plays the seat (left, absent, deactivated); empty otherwise.",
    )
    deadline = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="When a stand-in moves for this seat."
    )
    bank = models.FloatField(
        default=0, help_text="Seconds of bank time left when the seat's clock last started."
    )
    stand_ins = models.PositiveSmallIntegerField(
        default=0, help_text="Stand-in moves in a row (the person's own move resets it)."
    )

    class Meta:
        ordering = ["position", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="one_user_per_position"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.game}"

    @property
    def name(self) -> str:
        """The seat's name in the game (Flour, Sugar, ...), once drawn."""
        if self.position is None:
            return ""
        return self.game.spec.seat_names[self.position]


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
        return f"{self.game} move {self.seq} by seat {self.seat}"


class TableSocket(models.Model):
    """One open (or lately closed) socket at a table, seen by every server process.

    Its process renews `seen_at` every sweep while the socket is open; a closed socket keeps its
    row with the time it closed, so its person stays "here" through a short drop. A row that
    stopped being renewed belongs to a process that died.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sockets")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    channel = models.CharField(max_length=200, unique=True)
    process = models.CharField(max_length=40, db_index=True)
    open = models.BooleanField(default=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"socket of {self.user or 'a guest'} at game {self.game_id}"
