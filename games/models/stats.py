"""The counters behind the /stats/<game>/ charts."""

from __future__ import annotations

from django.db import models


class StatCount(models.Model):
    """One counter of the /stats/<game>/ charts, moved in the transaction that ends a game.

    `chart` names the chart (scores, seat_games, seat_wins, ...), `key` the bar in it.
    """

    kind = models.CharField(max_length=40)
    chart = models.CharField(max_length=20)
    key = models.CharField(max_length=40)
    count = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "chart", "key"], name="one_count_per_bar")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.chart} {self.key}: {self.count}"
