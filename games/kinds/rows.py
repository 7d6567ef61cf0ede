"""A table's rows as the kinds read them, and what they hand the boards back.

The kinds sit below the models: they read a seat and who sits there through these small
protocols (games.models.Seat and accounts.models.User fit them), so the models can ask the
catalog for a kind. A table itself (GameRow) is read in base.py, beside the kind it names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypedDict

from django.utils.translation import gettext


class PersonRow(Protocol):
    """Who sits at a seat, as the kinds read it (accounts.models.User)."""

    @property
    def username(self) -> str: ...


class SeatRow(Protocol):
    """A seat as the kinds read it (games.models.Seat)."""

    @property
    def position(self) -> int | None: ...
    @property
    def bot(self) -> str: ...
    @property
    def results_seen(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def user(self) -> PersonRow: ...


class Hand(TypedDict):
    """A seat's hidden hand as a replay shows it: whose, and its cards as its owner saw them."""

    player: str
    cards: Sequence[Mapping[str, object]]


class AppendOnly(list[object]):
    """A list that only ever grows at one end (a game's log): its length and its newest item
    tell it apart, so a region's fingerprint (games/boards/changes.py) costs the same for three
    entries or three hundred.

    Only for a list every viewer sees alike (a public log): viewers with equal fingerprints share
    one render, and this fingerprint does not look at the older items."""

    def __init__(self, items: Iterable[object], newest: object) -> None:
        super().__init__(items)
        self.newest = newest


def player_name(seats: Sequence[SeatRow], position: int) -> str:
    """'Flour (alice)': the seat's name and who sat there, as the boards write it."""
    seat = next((s for s in seats if s.position == position), None)
    if seat is None:
        return gettext("Seat %(n)d") % {"n": position + 1}
    return f"{seat.name} ({seat.user.username})"
