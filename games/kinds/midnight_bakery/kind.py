"""Midnight Bakery as the site offers it: its table, its hints, its lesson, its stats and its
replay (each in its own module beside this one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext_noop as N_

from games.engines import midnight_bakery as engine
from games.engines.midnight_bakery import Action, State, View, master
from games.engines.midnight_bakery.bots import BOTS
from games.engines.midnight_bakery.cards import FACE_NAMES
from games.kinds.base import (
    Counts,
    Facts,
    GameKind,
    Hand,
    Option,
    ReplayedMove,
    SeatRow,
)
from games.kinds.midnight_bakery.board import context, results_count, seat_results
from games.kinds.midnight_bakery.hints import advise
from games.kinds.midnight_bakery.lesson import LESSON
from games.kinds.midnight_bakery.replay import hands, move_words
from games.kinds.midnight_bakery.stats import stat_charts, stat_facts
from games.kinds.sessions import NIGHT


class MidnightBakery(GameKind[State, View, Action]):
    """Simultaneous drafting for 2 to 8 bakers over one night of three bakes."""

    slug = "midnight-bakery"
    name = "Midnight Bakery"
    engine = engine
    bots = BOTS
    remembering = {"master": master.remembering}
    seat_names = ("Flour", "Sugar", "Butter", "Cream", "Spice", "Cocoa", "Honey", "Moon")
    min_players = 2
    max_players = 8
    options = (
        Option(
            name="passing",
            label=N_("Passing"),  # its choices' words: the status board's, context "passing"
            choices=(("alternate", "Alternate"), ("next", "Next")),
            default="alternate",
        ),
    )
    blurb = N_("Three bakes before dawn: keep one pastry, pass the rest.")
    session_words = NIGHT  # "Start the night", "bake a night"
    regions = ("status", "results", "seats", "mine", "log")
    replay_regions = ("status", "results", "seats", "log")
    play_forms = ("batch-form",)
    secret_moves = True
    demo_two_every = 3  # a night of two is where the Night Owl plays
    seat_chart_title = N_("Win rate by seat")
    seat_chart_blurb = N_(
        "Seats pass to the next or previous seat; shared wins count for each winner."
    )
    stats_template = "games/midnight-bakery/_stats.html"
    lesson = LESSON

    def moment(self, view: View) -> str:
        """A batch changes only when the pick or the bake moves on."""
        return f"{view['bake']}.{view['pick']}"

    board = staticmethod(context)  # the Midnight Bakery board of one viewer (board.py)

    def advise(self, view: View, action: Action) -> tuple[str, str]:
        """The pastry to keep, and why, from the seat's own batch and case."""
        return advise(view, action)

    def rules_context(self) -> dict[str, object]:
        """The cards' names, the engine's own (proper names in every language)."""
        return {"face_names": FACE_NAMES}

    def results_count(self, view: View) -> int:
        """How many bakes have been scored."""
        return results_count(view)

    def seat_results(self, result: Mapping[str, object], position: int) -> dict[str, object]:
        """Truffles, bonus, and each bake's breakdown."""
        return seat_results(result, position)

    def seat_label(self, turn: int) -> str:
        """Seats keep their names all night (Flour acts first): the chart names them."""
        return self.seat_names[turn - 1]

    def stat_facts(self, view: View, result: Mapping[str, object]) -> Facts:
        """Pastries kept, and the owl's denials."""
        return stat_facts(view, result)

    def stat_charts(self, counts: Counts) -> dict[str, object]:
        """The owl's denials and the most kept pastries."""
        return stat_charts(counts)

    def hidden_hands(self, state: State, seats: Sequence[SeatRow]) -> list[Hand]:
        """Every batch at this moment."""
        return hands(state, seats)

    def describe_move(self, move: ReplayedMove[State, Action]) -> tuple[str, list[str]]:
        """The pastry kept (or the peel's two), and the reveal it set off."""
        return move_words(move)
