"""A replay's hidden hands come from the seats that were placed at the table."""

from __future__ import annotations

from dataclasses import dataclass

from games import catalog
from games.engines import cakehalla as ch


@dataclass
class Person:
    username: str


@dataclass
class SeatStub:
    """A seat as the kinds read it (games.kinds.base.SeatRow)."""

    position: int | None
    name: str
    user: Person
    bot: str = ""
    results_seen: int = 0


def test_cakehalla_hands_leave_out_a_seat_never_placed() -> None:
    state = ch.apply_action(ch.new_game(2, seed=9), 0, {"type": "reserve", "tier": 3})
    seats = [
        SeatStub(None, "Oat", Person("carol")),
        SeatStub(1, "Spelt", Person("bob")),
        SeatStub(0, "Rye", Person("alice")),
    ]
    hands = catalog.get("cakehalla").hidden_hands(state, seats)
    assert [hand["player"] for hand in hands] == ["Rye (alice)", "Spelt (bob)"]
    assert [len(hand["cards"]) for hand in hands] == [1, 0]
    assert "hidden" not in hands[0]["cards"][0]  # its owner's view: the card itself
