"""A finished review as a person reads it: the costliest decisions, a chart of the seat's
expected result through the game, how often it chose as the master would, and one summary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, ngettext

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
    decisions: list[dict[str, Any]]
    chart: charts.Line | None

    @property
    def close_percent(self) -> int:
        """The share of close decisions, in percent (100 for a seat with no decision)."""
        return round(100 * self.close / self.total) if self.total else 100


def amount(value: float, unit: str) -> str:
    """A cost in words: "about 3 points", "about 12% of a win" (in the language active)."""
    rounded = round(value)
    if unit == "points":
        if rounded < 1:
            return gettext("less than a point")
        return ngettext("about %(n)d point", "about %(n)d points", rounded) % {"n": rounded}
    if rounded < 1:
        return gettext("less than 1% of a win")
    return gettext("about %(n)d%% of a win") % {"n": rounded}


def in_language(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions with their words (when, chosen, best) in the language active, as the lane
    stored them in each language; a review stored before, in the English it has."""
    language = get_language() or "en"
    return [{**d, **d.get("said", {}).get(language, {})} for d in decisions]


def costliest(decisions: list[dict[str, Any]], unit: str, most: int = 3) -> list[dict[str, Any]]:
    """The decisions that cost the most, worst first, leaving out those that cost next to
    nothing."""
    costly = [d for d in decisions if d["cost"] >= WORTH_NAMING[unit]]
    return sorted(costly, key=lambda d: (-d["cost"], d["move"]))[:most]


def summary_of(decisions: list[dict[str, Any]], unit: str) -> str:
    """One or two sentences a person understands at a glance (in the language active)."""
    if not decisions:
        return gettext(
            "This seat had no choice to make: every move it made was the only one it had."
        )
    worst = costliest(decisions, unit)
    lost = amount(sum(d["cost"] for d in decisions), unit)
    if not worst:
        return ngettext(
            "You played as the master would: your %(count)d decision together cost %(lost)s.",
            "You played as the master would: your %(count)d decisions together cost %(lost)s.",
            len(decisions),
        ) % {"count": len(decisions), "lost": lost}
    first = worst[0]
    said = {
        "lost": lost,
        "when": first["when"],
        "chosen": first["chosen"],
        "best": first["best"],
        "cost": amount(first["cost"], unit),
    }
    if len(worst) == 1:
        return (
            gettext(
                "You lost %(lost)s over the game, most of it to one decision. Your costliest "
                "was at %(when)s: you chose “%(chosen)s” where the master would choose "
                "“%(best)s” (%(cost)s)."
            )
            % said
        )
    if len(worst) == 2:
        return (
            gettext(
                "You lost %(lost)s over the game, most of it to two decisions. Your costliest "
                "was at %(when)s: you chose “%(chosen)s” where the master would choose "
                "“%(best)s” (%(cost)s)."
            )
            % said
        )
    return (
        gettext(
            "You lost %(lost)s over the game, most of it to three decisions. Your costliest was at "
            "%(when)s: you chose “%(chosen)s” where the master would choose “%(best)s” (%(cost)s)."
        )
        % said
    )


def reading(stored: list[dict[str, Any]], unit: str) -> Reading:
    """The whole review read in the language active: its summary, figures, costliest decisions,
    every decision and the chart."""
    decisions = in_language(stored)
    close = sum(1 for d in decisions if d["cost"] <= CLOSE[unit])
    values = [float(d["chosen_value"]) for d in decisions]
    return Reading(
        summary=summary_of(decisions, unit),
        close=close,
        total=len(decisions),
        lost=round(sum(d["cost"] for d in decisions), 1),
        costliest=costliest(decisions, unit),
        decisions=decisions,
        chart=charts.line(values, width=480, height=120),
    )
