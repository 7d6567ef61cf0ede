"""Replays of finished games: every state rebuilt from the stored setup and the Action rows.

A frame is the table after move N through someone's eyes: by default everything (the spectator's
table plus, since the game is over, every seat's hidden hand at that moment read from that seat's
own view), or one seat's (exactly engine.view() of that seat then: what that baker knew). Never
for a running game.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field
from typing import cast

from django.http import HttpRequest
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.boards import render_page_part
from games.kinds.base import AnyKind, Hand, ReplayedMove, player_name
from games.models import Game, Seat
from games.records import archive

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
    moves: list[tuple[int, dict[str, object]]] = field(default_factory=list)
    states: list[object] = field(default_factory=list)  # engine states (opaque here)

    @classmethod
    def of(cls, game: Game) -> Replay:
        """The replay of a finished game, rebuilt from its stored setup and every move;
        ReplayUnavailable for any other, ReplayBroken (logged) if it cannot be rebuilt."""
        if game.status == Game.Status.ABORTED:
            raise ReplayUnavailable(
                gettext("A moderator stopped this game: %(reason)s")
                % {"reason": game.abort_sentence}
            )
        if game.status != Game.Status.OVER:
            raise ReplayUnavailable(gettext("The replay opens when the game ends."))
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
            raise ReplayBroken(
                gettext("This replay is not available. %(why)s") % {"why": exc}
            ) from exc
        return cls(game=game, seats=seats, moves=moves, states=states)

    @property
    def total(self) -> int:
        """How many moves the game had (frames run from 0 to total)."""
        return len(self.moves)

    def clamp(self, n: int) -> int:
        """A frame number within the game."""
        return max(0, min(n, self.total))

    def state(self, n: int) -> object:
        """The state after the first n moves (applying only moves not applied yet)."""
        engine = self.game.spec.engine
        while len(self.states) <= n:
            seat, payload = self.moves[len(self.states) - 1]
            self.states.append(engine.apply_action(self.states[-1], seat, payload))
        return self.states[n]


# --- a frame ------------------------------------------------------------------------------


def hidden_hands(replay: Replay, n: int) -> list[Hand]:
    """Every seat's hidden hand after move n, or [] when the game has none or all are empty."""
    hands = replay.game.spec.hidden_hands(replay.state(n), replay.seats)
    return hands if any(h["cards"] for h in hands) else []


def eyes_of(replay: Replay, raw: str | None) -> int | None:
    """The seat position whose eyes the viewer chose, or None for everything (also for garbage)."""
    positions = {s.position for s in replay.seats}
    try:
        eyes = int(raw or "")
    except ValueError:
        return None
    return eyes if eyes in positions else None


def eyes_choices(replay: Replay, eyes: int | None) -> list[dict[str, object]]:
    """The whose-eyes menu: everything, then each seat in order."""
    out = [{"value": "", "label": "Everything", "chosen": eyes is None}]
    for seat in sorted(replay.seats, key=lambda s: s.position or 0):
        position = seat.position or 0
        out.append(
            {
                "value": str(position),
                "label": player_name(replay.seats, position),
                "chosen": eyes == position,
            }
        )
    return out


def seat_as_watched(seat: Seat, results: int) -> Seat:
    """The seat as its board reads it in a replay: every result so far already closed."""
    watched = copy.copy(seat)
    watched.results_seen = results
    return watched


def frame_context(replay: Replay, n: int, eyes: int | None = None) -> dict[str, object]:
    """Everything the frame template needs for move n (already clamped), through whose eyes.

    With `eyes` a seat position, the frame is built from that seat's engine.view() alone: no
    other seat's hand, no rival's blind card, no rival's choice before the reveal.
    """
    game = replay.game
    spec = game.spec
    state = replay.state(n)
    me = next((s for s in replay.seats if s.position == eyes), None) if eyes is not None else None
    legal: list[dict[str, object]] = []
    if me is None:
        view = spec.replay_view(state)
        hands = hidden_hands(replay, n)
        regions = list(spec.replay_regions)
    else:
        view = spec.engine.view(state, me.position)
        legal = spec.engine.legal_actions(state, me.position)  # their choices, shown read-only
        me = seat_as_watched(me, spec.results_count(view))
        hands = []  # their own hand is in their own part of the board, as they saw it
        regions = [name for name in spec.regions if name != "dialog"]
    ctx: dict[str, object] = {
        "game": game,
        "spec": spec,
        "seats": replay.seats,
        "me": None,
        "version": game.version,
        "replaying": True,
        "n": n,
        "total": replay.total,
        "first": 0,
        "prev": max(0, n - 1),
        "next": min(replay.total, n + 1),
        "last": replay.total,
        "region_templates": [f"{spec.template_dir}/_{name}.html" for name in regions],
        "hands": hands,
        "eyes": "" if me is None else str(me.position),
        "also": "" if me is None else f"&eyes={me.position}",  # what each step link keeps
        "eyes_name": "" if me is None else player_name(replay.seats, me.position or 0),
        "eyes_choices": eyes_choices(replay, None if me is None else me.position),
    }
    ctx.update(spec.board(game, view, legal, me, replay.seats))
    if me is not None:
        ctx["me"] = me
    if n > 0:
        seat, action = replay.moves[n - 1]
        move = ReplayedMove(
            replay.state(n - 1), state, seat, action, replay.seats, eyes if me else None
        )
        said, events = spec.describe_move(move)
        ctx.update(said=said, events=events)
    return ctx


def draw_frame(ctx: dict[str, object], request: HttpRequest) -> dict[str, object]:
    """The frame's board regions and hidden hands drawn with the boards' templates
    (games/boards/jinja.py), for the frame's page template to place: `regions`, `hands_html`."""
    board = {**ctx, "user": request.user}
    templates = cast(list[str], ctx["region_templates"])
    parts = [render_page_part(name, board, request) for name in templates]
    ctx["regions"] = [mark_safe(html) for html in parts]
    spec = cast(AnyKind, ctx["spec"])
    hands = render_page_part(spec.hands_template, board, request) if ctx["hands"] else ""
    ctx["hands_html"] = mark_safe(hands)
    return ctx
