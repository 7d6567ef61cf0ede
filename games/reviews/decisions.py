"""A seat's decisions in a finished game, each rebuilt as that seat met it, and weighed.

The moments come from the replay (games/web/replay.py: the stored setup and every Action row);
at each move of the seat with a choice to make, the review reads only that seat's view then and
its legal actions, as the master at the table would. The master weighs them in the thinking
pool (games/thinking.py: under the same cap as the bots' searches), with a seed of the decision's
own, so a review worked again (a killed worker) comes out the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation

from games.reviews.masters import Master
from games.thinking import think
from games.web.replay import Replay


@dataclass(frozen=True)
class Decision:
    """One choice the seat made: the frame it made it at (the state after `move` moves), its
    view and legal actions then, and the action it took."""

    move: int
    view: Any
    legal: list[Any]
    chosen: Mapping[str, Any]


def seat_decisions(replay: Replay, seat: int, start: int = 0) -> Iterator[Decision]:
    """The seat's moves with more than one legal action, in order, from its `start`-th on."""
    engine = replay.game.spec.engine
    found = 0
    for move, (who, payload) in enumerate(replay.moves):
        if who != seat:
            continue
        state = replay.state(move)
        legal = engine.legal_actions(state, seat)
        if len(legal) < 2:
            continue
        if found >= start:
            yield Decision(move, engine.view(state, seat), legal, payload)
        found += 1


def count_decisions(replay: Replay, seat: int) -> int:
    """How many decisions the seat made (the review's total)."""
    return sum(1 for _ in seat_decisions(replay, seat))


def decision_seed(game_seed: int, seat: int, move: int) -> str:
    """The seed of one decision's weighing: the same each time it is worked."""
    return f"review-{game_seed}-{seat}-{move}"


def words(advice: str) -> str:
    """An action as the hints say it ("Keep the Bun."), to quote inside a sentence."""
    return advice.strip().rstrip(".")


def decision_words(
    replay: Replay, master: Master, decision: Decision, best: Mapping[str, Any], language: str
) -> dict[str, str]:
    """When the decision came, what was chosen and what the master would choose, in words of
    this language: worked out once by the lane in each of the site's languages and stored, so
    every reader reads the review in theirs (summary.in_language)."""
    spec = replay.game.spec
    with translation.override(language):
        return {
            "when": master.when(decision.view),
            "chosen": words(spec.advise(decision.view, decision.chosen)[0]),
            "best": words(spec.advise(decision.view, best)[0]),
        }


PAIR_SHARE = 4
"""The head-to-head of the chosen action and the master's pick gets a quarter of the budget."""


def weigh_decision(
    replay: Replay, master: Master, seat: int, decision: Decision, iterations: int
) -> dict[str, Any]:
    """One decision weighed by the master: what was chosen and what the master would choose,
    each in words and in the review's unit, and what the choice cost (never negative).

    The master's search drops the choices that look worse early, so the chosen one may rest on
    few played-out games, and its figure is then mostly luck. When the seat chose otherwise
    than the master, the two are weighed again alone, head to head on the same sampled deals:
    the cost is read from that, as precise as the budget allows."""
    rng = random.Random(decision_seed(replay.game.seed, seat, decision.move))
    weighed = think(master.weigh, decision.view, decision.legal, rng, iterations=iterations)
    best = weighed[0]
    matched = master.same(best.action, decision.chosen)
    chosen = next((w for w in weighed if master.same(w.action, decision.chosen)), best)
    if not matched:
        taken = next((a for a in decision.legal if master.same(a, decision.chosen)), None)
        if taken is not None:
            pair = think(
                master.weigh,
                decision.view,
                [best.action, taken],
                rng,
                iterations=max(2, iterations // PAIR_SHARE),
            )
            best = next((w for w in pair if master.same(w.action, best.action)), best)
            chosen = next((w for w in pair if master.same(w.action, taken)), chosen)
    best_value, chosen_value = master.measure(best), master.measure(chosen)
    said = {
        code: decision_words(replay, master, decision, best.action, code)
        for code, _ in settings.LANGUAGES
    }
    return {
        "move": decision.move,
        **said["en"],
        "said": said,
        "matched": matched,
        "chosen_value": round(chosen_value, 2),
        "best_value": round(best_value, 2),
        "chosen_win": round(chosen.win, 4),
        "best_win": round(best.win, 4),
        "cost": round(max(0.0, best_value - chosen_value), 2),
        "choices": len(weighed),
    }
