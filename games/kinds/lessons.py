"""A guided first game's shape (games/tutorial/services.py reads it; each kind's lesson.py fills
it in): a fixed short deal against one bot under the real rules, the taps each step points at, and
the learner's planned path."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Press:
    """One tap of a move on the board: the control (a CSS selector in #board), and a selector that
    matches once that tap is made (empty: the tap that sends the move)."""

    target: str
    done: str = ""


@dataclass(frozen=True)
class Scripted:
    """One of the learner's moves in a lesson's planned path, and one sentence of why."""

    action: Mapping[str, object]
    why: str


@dataclass(frozen=True)
class Lesson:
    """A game's guided first game (games/tutorial/services.py): a fixed short deal against one
    bot under the real rules, and the words and controls its steps point at."""

    # The engine's setup (a fixed deal) and the table's seed (seats, bots' choices).
    setup: Mapping[str, object]
    seed: int
    bot: str
    # The table's options, and one sentence the first step opens with.
    options: Mapping[str, str]
    welcome: str
    # Once the game is over: one sentence about the scoring the results show.
    scoring: str
    # While a round's results wait to be closed: one sentence about them.
    round_scored: str
    # The board's taps that make an action of this kind, in order (one for a one-tap move).
    control: Callable[[Mapping[str, object]], tuple[Press, ...]]
    # The results on the board, and the control that closes a round's results.
    results_control: str
    close_control: str
    # The learner's planned moves (a deal started part way): each step offers the next one while
    # the learner has followed the plan and it is legal; the strongest bot's choice otherwise.
    script: tuple[Scripted, ...] = ()
