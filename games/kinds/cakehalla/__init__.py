"""Cakehalla as the site offers it, one module a part: its board (board.py, with its log, words
and standings), its hints, its lesson, its rules page, its stats and its replay; kind.py gathers
them into the game's kind, which games/catalog.py registers."""

from games.kinds.cakehalla.kind import Cakehalla

__all__ = ["Cakehalla"]
