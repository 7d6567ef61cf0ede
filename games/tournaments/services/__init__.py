"""The only code that changes a tournament's rows: each verb locks the tournament's row, checks,
changes, bumps its version and announces it to the tournament's group once committed.

Modules: base (the lock, versions, the group, what people are told), creation (a new
tournament's settings checked, and made), entry (join, withdraw, pause, resume, presence),
absence (who is here for a Swiss round, "I'm here", what the away are told), rounds (start,
Swiss rounds, a table's end and what follows), arena (an arena's free people seated), seating
(who is here, a round's tables seated at once and their pages moved), results (recording a table
once, the standings, the end), moderation (a moderator's removal and stop), chat (the
tournament's own chat). Games are made and played
only through games.services.
"""

from games.groups import tournament_group
from games.services import NotAllowed, ServiceError
from games.tournaments.services import chat
from games.tournaments.services.absence import check_in
from games.tournaments.services.base import now
from games.tournaments.services.creation import Rules, create
from games.tournaments.services.entry import (
    block_note,
    here,
    join,
    pause,
    resume,
    withdraw,
)
from games.tournaments.services.moderation import remove, stop
from games.tournaments.services.results import (
    STANDING_ORDER,
    Standing,
    record_table,
    recount,
    standings,
)
from games.tournaments.services.rounds import (
    advance,
    game_ended_here,
    start,
    table_ended,
    warn_soon,
)

__all__ = [
    "STANDING_ORDER",
    "NotAllowed",
    "Rules",
    "ServiceError",
    "Standing",
    "advance",
    "block_note",
    "chat",
    "check_in",
    "create",
    "game_ended_here",
    "here",
    "join",
    "now",
    "pause",
    "record_table",
    "recount",
    "remove",
    "resume",
    "standings",
    "start",
    "stop",
    "table_ended",
    "tournament_group",
    "warn_soon",
    "withdraw",
]
