"""Hints at practice tables: what the strongest bot that answers at once (kind.hint_bot) would do
from the asking seat's own view.

Only at an unrated table against bots, for a seated person whose move it is. The bot is handed
`engine.view(state, position)` (what that seat may know) and its legal actions, exactly as a bot
seat decides (games/services/bots.py `decide`); nothing is stored and no move is made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext

from accounts.models import User
from games.kinds.base import AnyKind
from games.models import Game, Seat
from games.services.base import NotAllowed, ServiceError, load_state, seats_in_order


@dataclass(frozen=True)
class Suggestion:
    """The suggested action, in words, and one line of why."""

    action: Mapping[str, object]
    words: str
    why: str
    version: int = 0  # the table's version it was given at (the page clears it once past)


def against_bots(seats: Sequence[Seat]) -> bool:
    """Whether a house bot account sits at the table (a resigned person's seat does not count)."""
    return any(s.user.is_bot for s in seats)


def offers_hints(game: Game, user: User | AnonymousUser, seats: Sequence[Seat]) -> bool:
    """Whether the table page holds the "Suggest a move" button for this viewer: an unrated table
    still in play where they sit and play their own seat. The button shows only while the board
    says hints are on (`hints_on`); before the start the host may still seat bots."""
    if game.rated or game.status not in (Game.Status.OPEN, Game.Status.RUNNING):
        return False
    mine = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    return mine is not None and not mine.resigned and not mine.user.is_bot


def hints_on(game: Game, seats: Sequence[Seat]) -> bool:
    """Whether the table gives hints now: a running practice table against bots (the same for
    every seated viewer, so the board's version region stays one render for all of them)."""
    return not game.rated and game.status == Game.Status.RUNNING and against_bots(seats)


def check_suggest(game: Game, user: User, seats: Sequence[Seat]) -> Seat:
    """The seat that may have a hint now, or a ServiceError in words."""
    if game.rated:
        raise NotAllowed(gettext("Hints are only for practice tables: this table is rated."))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None or user.is_bot:
        raise NotAllowed(gettext("You do not sit at this game."))
    if game.status != Game.Status.RUNNING or seat.position is None:
        raise ServiceError(gettext("Hints are given while the game runs."))
    if not against_bots(seats):
        raise ServiceError(gettext("Hints are only for practice games against bots."))
    if seat.resigned:
        raise NotAllowed(gettext("A house bot plays your seat now."))
    return seat


def hint_rng(game: Game, position: int) -> random.Random:
    """The hint's random stream: fixed for one seat at one move, and free of the game's seed
    (the bots' own stream is seeded by it, and a hint must tell nothing of the deal)."""
    return random.Random(f"hint:{game.pk}:{game.moves}:{position}")


def advise(
    kind: AnyKind, view: Mapping[str, object], legal: list[Mapping[str, object]], rng: random.Random
) -> Suggestion:
    """The hint bot's choice from this view (the strongest that answers at once), in the kind's
    words."""
    action = kind.bots[kind.hint_bot](view, legal, rng)
    words, why = kind.advise(view, action)
    return Suggestion(action, words, why)


def suggest(game: Game | int, user: User) -> Suggestion:
    """What the strongest bot would do in the user's seat now, from that seat's view only."""
    pk = game if isinstance(game, int) else game.pk
    game = Game.objects.get(pk=pk)
    seat = check_suggest(game, user, seats_in_order(game))
    assert seat.position is not None
    engine = game.spec.engine
    state = load_state(game)
    legal = engine.legal_actions(state, seat.position)
    if engine.is_over(state) or seat.position not in engine.active_seats(state) or not legal:
        raise ServiceError(
            gettext("It is not your move now: a hint comes when you have one to make.")
        )
    view = engine.view(state, seat.position)
    hint = advise(game.spec, view, legal, hint_rng(game, seat.position))
    return replace(hint, version=game.version)
