"""The tables' rows: this package hands on the names callers use (from games.models import Game).

table.py: Game and Seat (and which tables are live, turn-based, the house's); log.py: Action,
the log that rebuilds a game; talk.py: chat lines and mutes; reports.py: players' reports for
the moderators; stats.py: the charts' counters; sockets.py: a row per open socket (presence,
caps); people.py: the one shape of a person a row names who may be gone (optional_person).
"""

from games.models.log import Action
from games.models.reports import Report
from games.models.sockets import TableSocket
from games.models.stats import StatCount
from games.models.table import (
    LIVE,
    TURN_BASED,
    Game,
    Seat,
    house_tables,
    is_house_table,
    new_invite,
    new_seed,
)
from games.models.talk import ChatMessage, Mute

__all__ = [
    "LIVE",
    "TURN_BASED",
    "Action",
    "ChatMessage",
    "Game",
    "Mute",
    "Report",
    "Seat",
    "StatCount",
    "TableSocket",
    "house_tables",
    "is_house_table",
    "new_invite",
    "new_seed",
]
