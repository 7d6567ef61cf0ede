"""Cakehalla as the site offers it: one seat's view turned into its table, its hints, its
lesson, its rules page, its stats and its replay (each in its own module beside this one)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import cast

from django.utils.translation import gettext_noop as N_

from games.engines import cakehalla as engine
from games.engines.cakehalla import Action, View, master
from games.engines.cakehalla.bots import BOTS
from games.engines.cakehalla.state import State
from games.kinds.base import Counts, Facts, GameKind, Hand, ReplayedMove, SeatRow
from games.kinds.cakehalla.board import context
from games.kinds.cakehalla.hints import advise
from games.kinds.cakehalla.lesson import LESSON
from games.kinds.cakehalla.replay import hands, move_words, revealed
from games.kinds.cakehalla.rules import customer_table, sample_cards
from games.kinds.cakehalla.stats import stat_charts, stat_facts


class Cakehalla(GameKind[State, View, Action]):
    """Take ingredients, reserve and buy cards, win customers: race to 15, 2 to 4 bakers."""

    slug = "cakehalla"
    name = "Cakehalla"
    engine = engine
    bots = BOTS
    searching = {"master": master.with_budget}
    seat_names = ("Rye", "Spelt", "Oat", "Barley")
    min_players = 2
    max_players = 4
    blurb = N_("Take ingredients, bake cards, win customers: race to 15.")
    regions = (
        "status",
        "results",
        "info",
        "customers",
        "bakers",
        "counter",
        "market",
        "mine",
        "dialog",
    )
    replay_regions = ("status", "results", "info", "customers", "bakers", "counter", "market")
    play_forms = (
        "return-form",
        "choose-form",
        "reserve-form",
        "counter-form",
        "market-form",
        "pass-form",
    )
    extra = {"css": "cakehalla/cakehalla.css", "js": "cakehalla/board.js"}
    stats_template = "games/cakehalla/_stats.html"
    lesson = LESSON

    board = staticmethod(context)  # the Cakehalla board of one viewer (board.py)

    def turn(self, view: View) -> Hashable:
        """A turn lasts from its main action through putting tokens back and choosing a customer."""
        return int(view["turns_done"])

    def advise(self, view: View, action: Action) -> tuple[str, str]:
        """The move the strongest bot chose, and why, from the seat's own view."""
        return advise(view, action)

    def rules_context(self) -> dict[str, object]:
        """The ten famous customers and the sample cards' names, from the engine's tables."""
        return {"customers": customer_table(), "samples": sample_cards()}

    def seat_results(self, result: Mapping[str, object], position: int) -> dict[str, object]:
        """The cards the baker bought (the tie-break)."""
        return {"cards_bought": cast(list[int], result["cards_bought"])[position]}

    def stat_facts(self, view: View, result: Mapping[str, object]) -> Facts:
        """The cards bought."""
        return stat_facts(view)

    def stat_charts(self, counts: Counts) -> dict[str, object]:
        """The most bought cards."""
        return stat_charts(counts)

    def replay_view(self, state: State) -> View:
        """The table with every reservation face up, as its owner saw it."""
        return revealed(state)

    def hidden_hands(self, state: State, seats: Sequence[SeatRow]) -> list[Hand]:
        """Every baker's reserved cards."""
        return hands(state, seats)

    def describe_move(self, move: ReplayedMove[State, Action]) -> tuple[str, list[str]]:
        """The move in the words of a kitchen log: the mover's own (blind cards named), or the
        watching seat's (a rival's blind card only by its tier)."""
        return move_words(move, self.seat_names)
