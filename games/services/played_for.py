"""The event a table was played for (a tournament's round), as its page names it: the features
that seat tables register how they find their own (games/wiring.py), and the site asks them. Such
a table offers no rematch (rematch.py): its event seats its people."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django_stubs_ext import StrOrPromise

from games.models import Game


@dataclass(frozen=True)
class PlayedFor:
    """The event a table was played for, as its page names it: "Round 2 of Sunday Swiss", the
    event's name and its page. Such a table offers no rematch: its event seats its people."""

    words: StrOrPromise  # lazily translated: said in each viewer's language
    name: str
    url: str


PLAYED_FOR: list[Callable[[Game], PlayedFor | None]] = []
"""How the features that seat tables (tournaments) find their own; filled by games/wiring.py."""


def played_for(game: Game) -> PlayedFor | None:
    """The event this table was played for, if any (a query for each feature that seats)."""
    for find in PLAYED_FOR:
        found = find(game)
        if found is not None:
            return found
    return None
