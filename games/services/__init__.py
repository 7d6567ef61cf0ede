"""The only code that changes a game: every change is check_ then do_, in one transaction.

Each verb locks the game row, validates, changes, stores and announces the new version to the
table's channel group once the transaction commits; bots answer after the commit, each move in
its own transaction (bot_step, run by games.live.runner). Callers use the verbs below; the modules
hold the steps: base (refusals, the lock, versions and announcements), tables (before the game),
play (the game).
"""

from games.services import chat, tutorial
from games.services.absence import sweep as sweep_absences
from games.services.base import (
    NotAllowed,
    ServiceError,
    StaleVersion,
    account_deleted,
    bots_due,
    closed_reason,
    closed_unstarted,
    game_ended,
    invited,
    lock_user,
    rematch_offered,
    stored,
    turn_came,
)
from games.services.deletion import delete_account
from games.services.hints import Suggestion, hints_on, offers_hints, suggest
from games.services.play import (
    ABSENT,
    DEACTIVATED,
    DELETED,
    LEFT,
    STAND_IN,
    Step,
    bot_due,
    bot_step,
    close_results,
    hand_all_seats_to_bots,
    hand_seat_to_bot,
    handed_over,
    play,
    replay,
    resign,
    run_bots,
    seated,
    take_seat_back,
)
from games.services.rematch import (
    accept_rematch,
    current_rematch,
    decline_rematch,
    read_answers,
    rematch,
)
from games.services.rematch import arrived as rematch_arrived
from games.services.rematch import sweep as sweep_rematches
from games.services.start import start
from games.services.tables import (
    add_bot,
    bot_account,
    cancel,
    close_unstarted_tables,
    create_game,
    house_table,
    join,
    leave,
    quick_game,
    remove_bot,
    seat_people,
)
from games.services.vacation import announce_vacations

__all__ = [
    "account_deleted",
    "closed_reason",
    "invited",
    "rematch_offered",
    "turn_came",
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
    "bots_due",
    "bot_step",
    "cancel",
    "chat",
    "close_unstarted_tables",
    "closed_unstarted",
    "close_results",
    "create_game",
    "current_rematch",
    "decline_rematch",
    "delete_account",
    "game_ended",
    "house_table",
    "join",
    "leave",
    "lock_user",
    "hints_on",
    "offers_hints",
    "read_answers",
    "play",
    "quick_game",
    "rematch",
    "rematch_arrived",
    "remove_bot",
    "replay",
    "resign",
    "run_bots",
    "seat_people",
    "seated",
    "sweep_absences",
    "announce_vacations",
    "sweep_rematches",
    "stored",
    "start",
    "suggest",
    "hand_all_seats_to_bots",
    "hand_seat_to_bot",
    "handed_over",
    "take_seat_back",
    "tutorial",
]
