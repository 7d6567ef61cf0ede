"""High Card as the site offers it: its one game module."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.kinds.base import GameKind, GameRow, Hand, ReplayedMove, SeatRow, player_name
from games.kinds.sessions import SessionWords
from tests.third_game import high_card
from tests.third_game.high_card import State
from tests.third_game.high_card.bots import BOTS

# High Card's views and actions are plain dicts: it has no shapes of its own.
View = dict[str, Any]
Action = dict[str, Any]


class HighCard(GameKind[State, View, Action]):
    """Two cards each, play one, the highest wins."""

    slug = "high-card"
    name = "High Card"
    engine = high_card
    bots = BOTS
    seat_names = ("North", "East", "South", "West")
    min_players = 2
    max_players = 4
    session_words = SessionWords(
        seats_drawn=_("Seats are drawn at random when the first cards are dealt."),
        start=_("Deal the hand"),
        pitch=_("play a hand of %(game)s"),
    )
    quick_bots = ("greedy",)
    regions = ("status", "hand", "results")
    replay_regions = ("status", "results")

    def board(
        self,
        game: GameRow,
        view: View,
        legal: list[Action],
        me: SeatRow | None,
        seats: Sequence[SeatRow],
    ) -> dict[str, Any]:
        """Each seat's played card, the viewer's hand with a button per legal card."""
        names = [player_name(seats, i) for i in range(len(view["seats"]))]
        result = view["result"] or {}
        return {
            "view": view,
            "rows": [
                {
                    "player": names[i],
                    "played": box["played"],
                    "winner": i in result.get("winners", []),
                }
                for i, box in enumerate(view["seats"])
            ],
            "turn_name": names[view["turn"]] if view["turn"] is not None else "",
        }

    def seat_results(self, result: Mapping[str, Any], position: int) -> dict[str, Any]:
        """The card the player kept in hand."""
        return {"kept": result["kept"][position]}

    def hidden_hands(self, state: State, seats: Sequence[SeatRow]) -> list[Hand]:
        """Every hand at this moment, from its owner's view."""
        return [
            {
                "player": player_name(seats, seat.position or 0),
                "cards": self.engine.view(state, seat.position)["hand"],
            }
            for seat in sorted(seats, key=lambda s: s.position or 0)
        ]

    def describe_move(self, move: ReplayedMove[State, Action]) -> tuple[str, list[str]]:
        """Who played which card (face up: every seat's eyes saw it); the end when it came."""
        events = ["Every card is down."] if self.engine.is_over(move.after) else []
        return f"{player_name(move.seats, move.seat)} played the {move.action['card']}.", events
