"""What a review needs of each game's master, in one place: its `weigh`, which of the weighed
choices a stored action was, what a choice is measured in, and when a decision came.

The masters (games/engines/<game>/master.py) are read as they are; this wraps the little they
leave to their caller. Midnight Bakery's master merges choices of equal faces (two Buns are one
choice), so a stored action is found by its faces; Cakehalla's weighs every legal action, so
by the action itself, and a review asks it to play each to the game's end (`to_end`), so its
`expected` is the final points as Midnight Bakery's is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.utils.translation import gettext, gettext_noop

from games.engines.cakehalla import master as cakehalla_master
from games.engines.midnight_bakery import master as midnight_master
from games.engines.weighed import Weighed


@dataclass(frozen=True)
class Master:
    """One game's master as a review reads it."""

    weigh: Callable[..., list[Any]]
    same: Callable[[Mapping[str, Any], Mapping[str, Any]], bool]
    when: Callable[[Mapping[str, Any]], str]
    unit: str  # "points" (expected final points) or "win" (chance of winning, in percent)

    def measure(self, weighed: Weighed[Any]) -> float:
        """A weighed choice in the review's unit: expected points, or percent of a win."""
        return weighed.expected if self.unit == "points" else 100.0 * weighed.win


def same_faces(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Midnight Bakery: two actions are one choice when they take the same faces."""
    return midnight_master.choice_of(dict(a)) == midnight_master.choice_of(dict(b))  # type: ignore[arg-type]


def same_action(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Cakehalla: the same action, whatever order its lists were stored in."""
    return canonical(a) == canonical(b)


def canonical(action: Mapping[str, Any]) -> str:
    """An action as text, lists sorted: equal for equal actions."""
    return json.dumps(
        {k: sorted(v, key=str) if isinstance(v, list) else v for k, v in action.items()},
        sort_keys=True,
        default=str,
    )


def night_moment(view: Mapping[str, Any]) -> str:
    """Midnight Bakery: "bake 2, pick 3" (in the language active)."""
    return gettext("bake %(bake)s, pick %(pick)s") % {"bake": view["bake"], "pick": view["pick"]}


PENDING = {
    "return": gettext_noop("returning tokens"),
    "customer": gettext_noop("choosing a customer"),
}


def cakehalla_moment(view: Mapping[str, Any]) -> str:
    """Cakehalla: "round 4", or "round 4, returning tokens" when a step is pending (in the
    language active)."""
    pending = view.get("pending")
    said = gettext("round %(round)s") % {"round": view["round"]}
    if not pending:
        return said
    step = gettext(PENDING[str(pending)]) if str(pending) in PENDING else str(pending)
    return gettext("%(round)s, %(step)s") % {"round": said, "step": step}


MASTERS: dict[str, Master] = {
    "midnight-bakery": Master(midnight_master.weigh, same_faces, night_moment, "points"),
    "cakehalla": Master(
        partial(cakehalla_master.weigh, to_end=True), same_action, cakehalla_moment, "points"
    ),
}


def master_of(kind: str) -> Master | None:
    """The master that reviews this game, or None for a game without one."""
    return MASTERS.get(kind)
