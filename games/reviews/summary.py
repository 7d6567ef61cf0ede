"""A finished review as a person reads it: the costliest decisions, a chart of the seat's
expected result through the game, how often it chose as the master would, and one summary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import charts

CLOSE = {"points": 0.5, "win": 2.0}
"""A decision within this of the master's choice counts as close (half a point; two percent of
a win): the weighing's own noise is about that size."""

WORTH_NAMING = {"points": 0.25, "win": 1.0}
"""A decision that cost less than this is not among the costliest (it is noise, not a mistake)."""


@dataclass(frozen=True)
class Reading:
    """What the review page says of a whole review."""

    summary: str
    close: int
    total: int
    lost: float
    costliest: list[dict[str, Any]]
    chart: charts.Line | None

    @property
    def close_percent(self) -> int:
        """The share of close decisions, in percent (100 for a seat with no decision)."""
        return round(100 * self.close / self.total) if self.total else 100


def amount(value: float, unit: str) -> str:
    """A cost in words: "about 3 points", "about 12% of a win"."""
    if unit == "points":
        rounded = round(value)
        if rounded < 1:
            return "less than a point"
        return f"about {rounded} point{'s' if rounded != 1 else ''}"
    rounded = round(value)
    if rounded < 1:
        return "less than 1% of a win"
    return f"about {rounded}% of a win"


def costliest(decisions: list[dict[str, Any]], unit: str, most: int = 3) -> list[dict[str, Any]]:
    """The decisions that cost the most, worst first, leaving out those that cost next to
    nothing."""
    costly = [d for d in decisions if d["cost"] >= WORTH_NAMING[unit]]
    return sorted(costly, key=lambda d: (-d["cost"], d["move"]))[:most]


def summary_of(decisions: list[dict[str, Any]], unit: str) -> str:
    """One or two sentences a person understands at a glance."""
    if not decisions:
        return "This seat had no choice to make: every move it made was the only one it had."
    worst = costliest(decisions, unit)
    lost = sum(d["cost"] for d in decisions)
    if not worst:
        return (
            f"You played as the master would: your {len(decisions)} decisions together cost "
            f"{amount(lost, unit)}."
        )
    first = worst[0]
    many = {1: "one decision", 2: "two decisions", 3: "three decisions"}[len(worst)]
    return (
        f"You lost {amount(lost, unit)} over the game, most of it to {many}. Your costliest "
        f"was at {first['when']}: you chose “{first['chosen']}” where the master would choose "
        f"“{first['best']}” ({amount(first['cost'], unit)})."
    )


def reading(decisions: list[dict[str, Any]], unit: str) -> Reading:
    """The whole review read: its summary, figures, costliest decisions and chart."""
    close = sum(1 for d in decisions if d["cost"] <= CLOSE[unit])
    values = [float(d["chosen_value"]) for d in decisions]
    return Reading(
        summary=summary_of(decisions, unit),
        close=close,
        total=len(decisions),
        lost=round(sum(d["cost"] for d in decisions), 1),
        costliest=costliest(decisions, unit),
        chart=charts.line(values, width=480, height=120),
    )
