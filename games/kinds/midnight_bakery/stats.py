"""What a finished night adds to /stats/midnight-bakery/: the pastries kept and the owl's
denials."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from games import charts
from games.engines import midnight_bakery as engine
from games.engines.midnight_bakery import View
from games.kinds.base import Counts, Facts


def stat_facts(view: View, result: Mapping[str, object]) -> Facts:
    """The pastries kept (from the public log); at two bakers, whether the owl denied the
    truffle bonus, as the engine's result says."""
    facts: Facts = Counter()
    for event in view.get("log", []):
        if event.get("type") == "keep":
            for face in event.get("faces", []):
                facts["kept", face] += 1
    if result.get("owl_truffles") is not None:
        facts["owl", "nights"] += 1
        if result.get("owl_denied"):
            facts["owl", "denied"] += 1
    return facts


def stat_charts(counts: Counts) -> dict[str, object]:
    """The Night Owl's denials, and the most kept pastries by name."""
    owl = counts.get("owl", {})
    nights, denied = owl.get("nights", 0), owl.get("denied", 0)
    return {
        "owl": {"nights": nights, "denied": denied, "percent": charts.percent(denied, nights)},
        "kept": charts.top_bars(counts.get("kept", {}), engine.face_name),
    }
