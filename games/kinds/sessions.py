"""One whole game in a game's own words: "when the night starts", "Start the night". Each kind
declares its session's sentences (GameKind.session_words), each translated when it is said; the
shared pages (the waiting room, the lobby) say them and never ask which game it is."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class SessionWords:
    """The sentences a table says about its one whole game, marked for translation."""

    seats_drawn: str | Promise
    """The waiting room's line on seats: "Seats are drawn at random when the game starts." """
    start: str | Promise
    """The host's button that starts the table: "Start the game"."""
    pitch: str | Promise
    """The lobby's quick game, as in "... or <pitch> against bots": "play a game of %(game)s"
    (%(game)s, if it says it, is the game's name)."""


GAME = SessionWords(
    seats_drawn=_("Seats are drawn at random when the game starts."),
    start=_("Start the game"),
    pitch=_("play a game of %(game)s"),
)
"""A game called a game (Cakehalla's, and any kind that declares nothing else)."""

NIGHT = SessionWords(
    seats_drawn=_("Seats are drawn at random when the night starts."),
    start=_("Start the night"),
    pitch=_("bake a night"),
)
"""A game called a night (Midnight Bakery's)."""
