"""Replays of finished games: every state rebuilt from the stored setup and the Action rows.

A frame is the table as a spectator saw it after move N, plus, since the game is over, every
seat's hidden hand at that moment read from that seat's own view. Never for a running game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from games import archive
from games.models import Game, Seat

logger = logging.getLogger(__name__)


class ReplayUnavailable(Exception):
    """The game is not over, so its replay would show what is still hidden."""


class ReplayBroken(ReplayUnavailable):
    """A finished game today's engine cannot play again (other rules, a refused move, ...)."""


@dataclass
class Replay:
    """One game's states, built on demand for one request and kept only for it."""

    game: Game
    seats: list[Seat] = field(default_factory=list)
    moves: list[tuple[int, dict]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game) -> Replay:
        """The replay of a finished game, rebuilt from its stored setup and every move;
        ReplayUnavailable for any other, ReplayBroken (logged) if it cannot be rebuilt."""
        if game.status != Game.Status.OVER:
            raise ReplayUnavailable("The replay opens when the game ends.")
        seats = [s for s in game.seats.select_related("user") if s.position is not None]
        moves = list(game.actions.order_by("seq").values_list("seat", "payload"))
        try:
            first = archive.start_state(
                game.kind, game.rules_version, len(seats), game.seed, game.options, game.setup
            )
            states = [first, *archive.played(game.spec.engine, first, moves)]
            stored = [archive.seat_record(s) for s in seats]
            problems = archive.result_problems(game.spec.engine, states[-1], stored)
            if problems:
                raise archive.CannotRebuild(" ".join(problems))
        except archive.CannotRebuild as exc:
            logger.warning("Replay of game %s cannot be rebuilt: %s", game.pk, exc)
            raise ReplayBroken(f"This replay is not available. {exc}") from exc
        return cls(game=game, seats=seats, moves=moves, states=states)

    @property
    def total(self) -> int:
        """How many moves the game had (frames run from 0 to total)."""
        return len(self.moves)

    def clamp(self, n: int) -> int:
        """A frame number within the game."""
        return max(0, min(n, self.total))

    def state(self, n: int) -> Any:
        """The state after the first n moves (applying only moves not applied yet)."""
        engine = self.game.spec.engine
        while len(self.states) <= n:
            seat, payload = self.moves[len(self.states) - 1]
            self.states.append(engine.apply_action(self.states[-1], seat, payload))
        return self.states[n]


# --- a frame ------------------------------------------------------------------------------


def hidden_hands(replay: Replay, n: int) -> list[dict[str, Any]]:
    """Every seat's hidden hand after move n, or [] when the game has none or all are empty."""
    hands = replay.game.spec.hidden_hands(replay.state(n), replay.seats)
    return hands if any(h["cards"] for h in hands) else []


def frame_context(replay: Replay, n: int) -> dict[str, Any]:
    """Everything the frame template needs for move n (already clamped)."""
    game = replay.game
    spec = game.spec
    state = replay.state(n)
    view = spec.replay_view(state)
    ctx: dict[str, Any] = {
        "game": game,
        "spec": spec,
        "seats": replay.seats,
        "me": None,
        "user": None,
        "version": game.version,
        "replaying": True,
        "n": n,
        "total": replay.total,
        "first": 0,
        "prev": max(0, n - 1),
        "next": min(replay.total, n + 1),
        "last": replay.total,
        "regions": [f"{spec.template_dir}/_{name}.html" for name in spec.replay_regions],
        "hands": hidden_hands(replay, n),
    }
    ctx.update(spec.board(game, view, [], None, replay.seats))
    if n > 0:
        seat, action = replay.moves[n - 1]
        said, events = spec.describe_move(replay.state(n - 1), state, seat, action, replay.seats)
        ctx.update(said=said, events=events)
    return ctx
