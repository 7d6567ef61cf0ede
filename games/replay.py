"""Replays of finished games: every state rebuilt from the seed and the Action rows.

A frame is the table as a spectator saw it after move N, plus, since the game is over, every
seat's hidden hand at that moment read from that seat's own view. Never for a running game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.boards import board_module, cakehalla, midnight_bakery
from games.models import Game, Seat

# Regions of a seat's own board that mean nothing to a watcher of a replay.
SKIPPED_REGIONS = frozenset({"mine", "dialog"})


class ReplayUnavailable(Exception):
    """The game is not over, so its replay would show what is still hidden."""


@dataclass
class Replay:
    """One game's states, built on demand for one request and kept only for it."""

    game: Game
    seats: list[Seat] = field(default_factory=list)
    moves: list[tuple[int, dict]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game) -> Replay:
        """The replay of a finished game; ReplayUnavailable for any other."""
        if game.status == Game.Status.ABORTED:
            raise ReplayUnavailable(f"A moderator stopped this game: {game.abort_reason}")
        if game.status != Game.Status.OVER:
            raise ReplayUnavailable("The replay opens when the game ends.")
        seats = [s for s in game.seats.select_related("user") if s.position is not None]
        moves = list(game.actions.order_by("seq").values_list("seat", "payload"))
        engine = game.spec.engine
        first = engine.new_game(len(seats), seed=game.seed, options=dict(game.options))
        return cls(game=game, seats=seats, moves=moves, states=[first])

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


def player_name(seats: list[Seat], position: int) -> str:
    """'Flour (alice)': the seat's name and who sat there, as the boards write it."""
    seat = next((s for s in seats if s.position == position), None)
    if seat is None:
        return f"Seat {position + 1}"
    return f"{seat.name} ({seat.user.username})"


# --- hidden hands, per game ---------------------------------------------------------------


def mb_hands(engine: Any, state: Any, seats: list[Seat]) -> list[dict[str, Any]]:
    """Each baker's batch at this moment, from their own view (the locked pick marked)."""
    out = []
    for seat in sorted(seats, key=lambda s: s.position or 0):
        own = engine.view(state, seat.position)
        cards = [{**c, "art": midnight_bakery.art(c["face"])} for c in own["batch"]]
        out.append({"player": player_name(seats, seat.position or 0), "cards": cards})
    return out


def ck_hands(engine: Any, state: Any, seats: list[Seat]) -> list[dict[str, Any]]:
    """Each baker's reserved cards at this moment, from their own view."""
    out = []
    for seat in sorted(seats, key=lambda s: s.position or 0):
        own = engine.view(state, seat.position)
        reserved = own["seats"][seat.position]["reserved"]
        out.append({"player": player_name(seats, seat.position or 0), "cards": reserved})
    return out


def ck_reveal(engine: Any, state: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The spectator view with each baker's reserved cards as their owner saw them."""
    revealed = [
        {**box, "reserved": engine.view(state, i)["seats"][i]["reserved"]}
        for i, box in enumerate(view["seats"])
    ]
    return {**view, "seats": revealed}


HANDS: Mapping[str, Callable[[Any, Any, list[Seat]], list[dict[str, Any]]]] = {
    "midnight-bakery": mb_hands,
    "cakehalla": ck_hands,
}
REVEAL: Mapping[str, Callable[[Any, Any, dict[str, Any]], dict[str, Any]]] = {
    "cakehalla": ck_reveal,
}


def hidden_hands(slug: str, engine: Any, state: Any, seats: list[Seat]) -> list[dict[str, Any]]:
    """Every seat's hidden hand, or [] when the game has none or every hand is empty."""
    hands = HANDS[slug](engine, state, seats) if slug in HANDS else []
    return hands if any(h["cards"] for h in hands) else []


# --- the move in words, per game ----------------------------------------------------------


def mb_move(replay: Replay, n: int) -> tuple[str, list[str]]:
    """What the baker chose at move n, and the public events it set off."""
    engine = replay.game.spec.engine
    seat, payload = replay.moves[n - 1]
    before, after = replay.state(n - 1), replay.state(n)
    names = {c["id"]: c["name"] for c in engine.view(before, seat)["batch"]}
    who = player_name(replay.seats, seat)
    if payload.get("type") == "peel":
        first, second = (names.get(c, c) for c in payload["cards"])
        said = f"{who} used the peel: a {first}, then a {second}."
    else:
        said = f"{who} chose a {names.get(payload.get('card'), payload.get('card'))}."
    seen = len(engine.view(before, None)["log"])
    events = [e["text"] for e in engine.view(after, None)["log"][seen:]]
    return said, events


def ck_move(replay: Replay, n: int) -> tuple[str, list[str]]:
    """What the baker did at move n, in the words of their own kitchen log (blind cards named)."""
    engine = replay.game.spec.engine
    seat, _ = replay.moves[n - 1]
    before, after = engine.view(replay.state(n - 1), seat), engine.view(replay.state(n), seat)
    names = cakehalla.player_names(after, replay.seats, replay.game.spec.seat_names)
    lines = [cakehalla.event_text(e, names) for e in after["log"][len(before["log"]) :]]
    if not lines:
        return f"{player_name(replay.seats, seat)} moved.", []
    return lines[0], lines[1:]


def plain_move(replay: Replay, n: int) -> tuple[str, list[str]]:
    """A game without its own words: who moved and the action as posted."""
    seat, payload = replay.moves[n - 1]
    return f"{player_name(replay.seats, seat)} played {json.dumps(payload)}.", []


MOVES: Mapping[str, Callable[[Replay, int], tuple[str, list[str]]]] = {
    "midnight-bakery": mb_move,
    "cakehalla": ck_move,
}


# --- a frame ------------------------------------------------------------------------------


def frame_context(replay: Replay, n: int) -> dict[str, Any]:
    """Everything the frame template needs for move n (already clamped)."""
    game = replay.game
    spec = game.spec
    engine = spec.engine
    state = replay.state(n)
    view = engine.view(state, None)
    view = REVEAL.get(spec.slug, lambda _e, _s, v: v)(engine, state, view)
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
        "regions": [
            f"{spec.template_dir}/_{name}.html"
            for name in spec.regions
            if name not in SKIPPED_REGIONS
        ],
        "hands": hidden_hands(spec.slug, engine, state, replay.seats),
        "hands_template": f"games/replay/_hands_{spec.slug}.html",
    }
    ctx.update(board_module(game).context(game, view, [], None, replay.seats))
    if n > 0:
        seat, _ = replay.moves[n - 1]
        said, events = MOVES.get(spec.slug, plain_move)(replay, n)
        ctx.update(mover=player_name(replay.seats, seat), said=said, events=events)
    return ctx
