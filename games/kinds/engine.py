"""The rules engine as the site reads it (../shared/engine-contract.md): the protocol an engine
package satisfies and the bot that plays over it. The kinds (base.py) name an engine's own state,
view and action in them; nothing here knows a game."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

# A game's state, view and action as the protocols read them (a view and a legal action only
# ever come out of an engine; a kind names its own in base.py).
S = TypeVar("S")
V_co = TypeVar("V_co", bound=Mapping[str, object], covariant=True)
V_contra = TypeVar("V_contra", bound=Mapping[str, object], contravariant=True)
A = TypeVar("A", bound=Mapping[str, object])


class Engine(Protocol[S, V_co, A]):
    """The public face of a rules engine (../shared/engine-contract.md); a package satisfies it.

    Beyond the contract: RULES_VERSION, stored with each game, and deal(), the setup a seed deals.
    What a caller hands in (options, a setup, an action, a snapshot) is any mapping: the engine
    checks it and refuses anything malformed with IllegalAction.
    """

    RULES_VERSION: int

    def deal(
        self, players: int, *, seed: int, options: Mapping[str, object] | None = None
    ) -> Mapping[str, object]: ...

    def new_game(
        self,
        players: int,
        *,
        seed: int,
        options: Mapping[str, object] | None = None,
        setup: Mapping[str, object] | None = None,
    ) -> S: ...

    def active_seats(self, state: S) -> list[int]: ...

    # A spectator (seat None) has no legal actions: callers hand it a stored position as it is.
    def legal_actions(self, state: S, seat: int | None) -> list[A]: ...

    def apply_action(self, state: S, seat: int, action: Mapping[str, object]) -> S: ...

    def view(self, state: S, seat: int | None) -> V_co: ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Mapping[str, object]: ...

    def dump(self, state: S) -> Mapping[str, object]: ...

    # A snapshot as the database hands it back: JSON of dump's shape, whatever its static type.
    def load(self, data: Any) -> S: ...


class Bot(Protocol[V_contra, A]):
    """A bot: an action chosen from its own seat's view and the legal actions."""

    def __call__(self, view: V_contra, legal: list[A], rng: random.Random, /) -> A: ...
