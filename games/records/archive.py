"""A game's record: what it was dealt, under which rules, and every action; rebuilt, exported
and re-checked.

A started game keeps the engine's `setup` (what was dealt) and its `RULES_VERSION`, so today's
engine rebuilds it from those and the Action rows, never by re-dealing the seed: a change to
how a seed deals cannot rewrite the past, and a rules change shows as an unknown version.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, cast

from django.utils.translation import gettext

from games import catalog
from games.engines import IllegalAction
from games.kinds.base import AnyEngine
from games.kinds.refusals import told
from games.models import Game, Seat

EXPORT_FORMAT = "bakehouse-game/1"
Move = tuple[int, Mapping[str, object]]  # (the seat, its action)


class Logged(Protocol):
    """An action as logged: an Action row, or its fields read alone (games/records/audit.py)."""

    @property
    def seq(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def payload(self) -> Any: ...


class CannotRebuild(Exception):
    """The stored game cannot be played again by today's engine; the message says why."""


def engine_for(kind: str, rules_version: int | None) -> AnyEngine:
    """The engine that plays this kind under these rules, or CannotRebuild."""
    try:
        engine = catalog.get(kind).engine
    except (KeyError, ImportError) as exc:
        raise CannotRebuild(
            gettext("Bakehouse no longer offers the game %(kind)s.") % {"kind": repr(kind)}
        ) from exc
    if rules_version is None:
        raise CannotRebuild(gettext("This game kept no record of the rules it was played under."))
    if rules_version != engine.RULES_VERSION:
        raise CannotRebuild(
            gettext(
                "This game was played under rules version %(then)s; today's rules are version "
                "%(now)s."
            )
            % {"then": rules_version, "now": engine.RULES_VERSION}
        )
    return engine


def start_state(
    kind: str,
    rules_version: int | None,
    players: int,
    seed: int,
    options: Mapping[str, object] | None,
    setup: Mapping[str, object] | None,
) -> object:
    """The first state of a stored game, dealt from its stored setup."""
    engine = engine_for(kind, rules_version)
    if setup is None:
        raise CannotRebuild(gettext("This game kept no record of what was dealt."))
    try:
        return engine.new_game(players, seed=seed, options=dict(options or {}), setup=setup)
    except IllegalAction as exc:
        raise CannotRebuild(
            gettext("Today's rules cannot deal this game again: %(why)s") % {"why": told(exc)}
        ) from exc


def played(engine: AnyEngine, state: object, moves: Iterable[Move]) -> Iterator[object]:
    """Each state after each move, or CannotRebuild at the first move today's rules refuse."""
    for number, (seat, action) in enumerate(moves, start=1):
        try:
            state = engine.apply_action(state, seat, action)
        except IllegalAction as exc:
            raise CannotRebuild(
                gettext("Today's rules refuse move %(number)d: %(why)s")
                % {"number": number, "why": told(exc)}
            ) from exc
        yield state


def last_state(engine: AnyEngine, first: object, moves: Iterable[Move]) -> object:
    """The state after every move (the first state when there is none)."""
    state = first
    for state in played(engine, first, moves):  # noqa: B007 (the last one is wanted)
        pass
    return state


def first_state(game: Game) -> object:
    """A stored game's first state, from its setup and rules version."""
    players = game.seats.exclude(position=None).count()
    return start_state(game.kind, game.rules_version, players, game.seed, game.options, game.setup)


def final_state(game: Game) -> object:
    """A finished game's last state, rebuilt from its setup and every action under its rules
    version, never its snapshot; CannotRebuild if today's engine cannot, or if the moves do
    not end it. Reads the seats and actions as prefetched, when they are."""
    players = sum(1 for s in game.seats.all() if s.position is not None)
    engine = engine_for(game.kind, game.rules_version)
    first = start_state(game.kind, game.rules_version, players, game.seed, game.options, game.setup)
    moves = sorted(game.actions.all(), key=lambda a: a.seq)
    state = last_state(engine, first, ((a.seat, a.payload) for a in moves))
    if not engine.is_over(state):
        raise CannotRebuild(gettext("The stored moves do not bring the game to its end."))
    return state


# --- export --------------------------------------------------------------------------------


def exportable(game: Game) -> bool:
    """Only finished games leave the site: a running one still hides cards and picks."""
    return game.status == Game.Status.OVER


def seat_record(seat: Seat) -> dict[str, object]:
    """One seat as exported: who sat there and how they finished."""
    return {
        "position": seat.position,
        "name": seat.name,
        "player": seat.user.username,
        "bot": seat.bot,
        "resigned": seat.resigned,
        "score": seat.score,
        "place": seat.place,
        "winner": seat.winner,
    }


def export(game: Game, seats: Sequence[Seat], actions: Sequence[Logged]) -> dict[str, object]:
    """A finished game as JSON-ready data: enough to play it again and check its result."""
    if not exportable(game):
        raise ValueError("Only finished games are exported.")
    placed = sorted((s for s in seats if s.position is not None), key=lambda s: s.position or 0)
    return {
        "format": EXPORT_FORMAT,
        "id": game.pk,
        "game": game.kind,
        "rules_version": game.rules_version,
        "options": game.options,
        "seed": game.seed,
        "setup": game.setup,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "seats": [seat_record(s) for s in placed],
        "actions": [{"seq": a.seq, "seat": a.seat, "action": a.payload} for a in actions],
    }


def export_game(game: Game) -> dict[str, object]:
    """The export of one finished game, read with its seats and actions."""
    seats = list(game.seats.select_related("user"))
    return export(game, seats, list(game.actions.order_by("seq")))


# --- verify --------------------------------------------------------------------------------


def verify(data: object) -> list[str]:
    """Play an exported game again with today's engine: what differs from its stored result.

    An empty list means the game replays to the end and every seat's score, place and win
    are the stored ones.
    """
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return [f"This is not a Bakehouse game export ({EXPORT_FORMAT})."]
    try:
        seats = sorted(data["seats"], key=lambda s: s["position"])
        moves = [(int(a["seat"]), a["action"]) for a in data["actions"]]
        engine = engine_for(data["game"], data["rules_version"])
        state = start_state(
            data["game"],
            data["rules_version"],
            len(seats),
            data["seed"],
            data["options"],
            data["setup"],
        )
        state = last_state(engine, state, moves)
    except CannotRebuild as exc:
        return [str(exc)]
    except (KeyError, TypeError, ValueError) as exc:
        return [f"The export is damaged: {exc!r}."]
    return result_problems(engine, state, seats)


def result_problems(
    engine: AnyEngine, state: object, seats: Sequence[dict[str, object]]
) -> list[str]:
    """How the stored seats (as `seat_record` writes them) differ from the rebuilt game's end."""

    if not engine.is_over(state):
        return ["The stored moves do not bring the game to its end."]
    result = engine.result(state)
    resigned = {cast(int, s["position"]) for s in seats if s.get("resigned")}
    scores = cast(list[int], result["scores"])
    places, winners = placings(list(scores), set(cast(list[int], result["winners"])), resigned)
    problems = []
    for seat in seats:
        p = cast(int, seat["position"])
        expected = {"score": scores[p], "place": places[p], "winner": p in winners}
        for key, value in expected.items():
            if seat.get(key) != value:
                problems.append(
                    f"Seat {p} ({seat.get('player')}): stored {key} {seat.get(key)!r}, "
                    f"replayed {value!r}."
                )
    return problems


def placings(
    scores: list[int], winners: set[int], resigned: set[int]
) -> tuple[list[int], set[int]]:
    """Each seat's place and the winners: a tie shares a place, resigned seats share the last.

    The others keep the engine's order among themselves; if every winner resigned, the best
    of the others win.
    """
    stayed = [p for p in range(len(scores)) if p not in resigned]
    won = winners - resigned

    def place(position: int) -> int:
        mine = scores[position]
        return 1 + sum(
            1
            for p in stayed
            if scores[p] > mine or (scores[p] == mine and p in won and position not in won)
        )

    places = [place(p) if p not in resigned else len(stayed) + 1 for p in range(len(scores))]
    if not won and resigned:
        won = {p for p in stayed if places[p] == 1}
    return places, won
