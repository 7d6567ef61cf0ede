"""What a finished Cakehalla game adds to /stats/cakehalla/: the cards bought."""

from __future__ import annotations

from collections import Counter

from games import charts
from games.engines.cakehalla import View
from games.kinds.base import Counts, Facts


def stat_facts(view: View) -> Facts:
    """The cards each baker bought, by name."""
    facts: Facts = Counter()
    for seat in view.get("seats", []):
        for card in seat.get("cards", []):
            facts["bought", card["name"]] += 1
    return facts


def stat_charts(counts: Counts) -> dict[str, object]:
    """The most bought cards."""
    return {"bought": charts.top_bars(counts.get("bought", {}))}
