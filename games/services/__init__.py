"""The only code that changes a game: every change is check_ then do_, in one transaction.

Each verb locks the game row, validates, changes, and stores the new version through
base.commit_version, which says what follows once the transaction commits (the table's sockets
told, this process's handed the saved table, turn notifications, bots due); bots answer after the
commit, each move in its own transaction (autoplay.bot_step, run by games.live.runner). Callers
use the verbs below; the modules hold the steps: base (refusals, the lock, commit_version), tables
(a person's new table) and seating (the site's tables, seated and dealt at once), joining,
hosting (the host's bots, cancel), unstarted (waiting tables closed), play (a person's move),
move_log (make_move, the one write path of every move, a person's, a bot's or a stand-in's, and
every move written down), bots and autoplay (the moves nobody makes by hand), clocks (deadlines,
and the stand-in when one passes), handover and leaving (a seat handed to a bot, resigning).
"""

from games.services import chat
from games.services.absence import sweep as sweep_absences
from games.services.autoplay import bot_step, inline_bots, run_bots
from games.services.away import retime_turn_based
from games.services.base import (
    NotAllowed,
    ServiceError,
    StaleVersion,
    closed_reason,
    closed_unstarted,
    lock_user,
    notice_words,
)
from games.services.bots import Step, bot_due, running_with_bots
from games.services.clocks.stand_in import STAND_IN
from games.services.deletion import delete_account
from games.services.handover import (
    ABSENT,
    DEACTIVATED,
    DELETED,
    LEFT,
    handed_over,
    take_seat_back,
)
from games.services.hints import Suggestion, hints_on, offers_hints, suggest
from games.services.hosting import add_bot, bot_account, cancel, remove_bot
from games.services.joining import join, leave
from games.services.leaving import hand_all_seats_to_bots, hand_seat_to_bot, resign
from games.services.move_log import seated
from games.services.play import close_results, play, replay
from games.services.played_for import PLAYED_FOR, PlayedFor, played_for
from games.services.rematch import (
    accept_rematch,
    current_rematch,
    decline_rematch,
    rematch,
)
from games.services.rematch import sweep as sweep_rematches
from games.services.rematch_deal import arrived as rematch_arrived
from games.services.rematch_deal import read_answers
from games.services.seating import guided_game, house_table, quick_game, seat_people, seat_tables
from games.services.start import start
from games.services.tables import check_create, create_game
from games.services.unstarted import close_unstarted_tables

__all__ = [
    "ABSENT",
    "DEACTIVATED",
    "DELETED",
    "LEFT",
    "STAND_IN",
    "NotAllowed",
    "ServiceError",
    "StaleVersion",
    "Step",
    "Suggestion",
    "accept_rematch",
    "add_bot",
    "bot_account",
    "bot_due",
    "bot_step",
    "cancel",
    "chat",
    "check_create",
    "close_unstarted_tables",
    "closed_reason",
    "closed_unstarted",
    "close_results",
    "create_game",
    "current_rematch",
    "decline_rematch",
    "delete_account",
    "guided_game",
    "house_table",
    "inline_bots",
    "join",
    "leave",
    "lock_user",
    "notice_words",
    "hints_on",
    "offers_hints",
    "played_for",
    "PLAYED_FOR",
    "PlayedFor",
    "read_answers",
    "play",
    "quick_game",
    "rematch",
    "rematch_arrived",
    "remove_bot",
    "replay",
    "resign",
    "run_bots",
    "running_with_bots",
    "seat_people",
    "seat_tables",
    "seated",
    "sweep_absences",
    "sweep_rematches",
    "start",
    "suggest",
    "hand_all_seats_to_bots",
    "hand_seat_to_bot",
    "handed_over",
    "take_seat_back",
    "retime_turn_based",
]
