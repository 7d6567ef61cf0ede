"""A review of one seat of one finished game: each of its decisions weighed, saved as it is done."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.models.people import optional_person


class Review(models.Model):
    """One seat's decisions in one game, weighed by the master; whole only once status is done."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting its turn"
        WORKING = "working", "Being worked"
        DONE = "done", "Done"
        FAILED = "failed", "Could not be made"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField(help_text=_("The seat position reviewed."))
    asked_by = optional_person("reviews_asked")
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    total = models.PositiveIntegerField(default=0, help_text=_("The seat's decisions to weigh."))
    decisions: Any = models.JSONField(
        default=list, blank=True, help_text=_("Each decision weighed so far, in order.")
    )
    iterations = models.PositiveIntegerField(default=0, help_text=_("Played-out games a decision."))
    worker = models.CharField(max_length=64, blank=True, help_text=_("The lane working it."))
    heartbeat = models.DateTimeField(null=True, blank=True)
    why = models.CharField(max_length=300, blank=True, help_text=_("Why it could not be made."))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_review_a_seat"),
        ]

    def __str__(self) -> str:
        return gettext("Review of seat %(seat)d of game #%(game)s") % {
            "seat": self.seat + 1,
            "game": self.game_id,
        }

    @property
    def done(self) -> int:
        """Decisions weighed so far."""
        return len(self.decisions)

    @property
    def whole(self) -> bool:
        """Shown as a review only when every decision is in."""
        return self.status == self.Status.DONE and self.done == self.total
