"""What one viewer of a tournament's page sees of themselves: their line, their table under way,
and what they may press (join, withdraw, pause, "I'm here"), over the board every viewer shares
(pages.py: read_board)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import AnonymousUser

from accounts.models import User, signed_in
from games.models import TURN_BASED
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.pages import OVER, Board, TableLine
from games.tournaments.services.absence import CHECK_IN_AHEAD, check_ins_open
from games.tournaments.services.entry import check_join


@dataclass(frozen=True)
class You:
    """What one viewer sees of themselves: their line, their table under way, and what they
    may press (with the words why they may not join, if they may not)."""

    signed_in: bool
    standing: services.Standing | None
    table: TableLine | None
    entrants: int
    over: bool
    ranked: bool = True
    may_join: bool = False
    refusal: str = ""
    may_withdraw: bool = False
    may_pause: bool = False
    may_resume: bool = False
    may_check_in: bool = False
    checked_in: bool = False


def you_of(board: Board, user: User | AnonymousUser) -> You:
    """The viewer's own line and table, from the board alone (no query)."""
    tournament = board.tournament
    standing = board.standing_of(user)
    table = board.under_way.get(standing.entrant) if standing is not None else None
    return You(
        signed_in=signed_in(user),
        standing=standing,
        table=table if table is not None and table.running else None,
        entrants=board.playing,
        over=tournament.status in OVER,
        ranked=board.ranked,
    )


def you_with_buttons(
    board: Board, user: User | AnonymousUser, invite: str | None, at: datetime
) -> You:
    """The viewer's line with what they may press; whether they may join is the join's own
    check (a few queries, for a signed-in viewer who has not entered)."""
    shown = you_of(board, user)
    tournament = board.tournament
    if not signed_in(user) or shown.over:  # as shown.signed_in says
        return shown
    standing = shown.standing
    if standing is None:
        try:
            check_join(tournament, user, invite, at)
        except services.ServiceError as refused:
            return replace(shown, refusal=str(refused))
        return replace(shown, may_join=True)
    if standing.withdrawn:  # away twice in a running Swiss: they may come back
        away = standing.withdrawn_why == Entrant.Withdrawn.ABSENT
        return replace(shown, may_join=away and tournament.status == Tournament.Status.RUNNING)
    arena_running = tournament.is_arena and tournament.status == Tournament.Status.RUNNING
    offered = check_in_offered(tournament, at)
    checked_in = offered and checked_in_for_next(tournament, standing.entrant)
    return replace(
        shown,
        may_check_in=offered and not checked_in,
        checked_in=checked_in,
        may_withdraw=True,
        may_pause=arena_running and not standing.paused,
        may_resume=arena_running and standing.paused,
    )


def check_in_offered(tournament: Tournament, at: datetime) -> bool:
    """Whether "I'm here" is offered: a live Swiss, running or starting within minutes."""
    if not tournament.is_swiss or tournament.pace in TURN_BASED:
        return False
    if tournament.status == Tournament.Status.RUNNING:
        return True
    soon = tournament.starts_at - CHECK_IN_AHEAD
    return tournament.status == Tournament.Status.SCHEDULED and at >= soon


def checked_in_for_next(tournament: Tournament, entrant: int) -> bool:
    """Whether the entrant pressed "I'm here" for the next round already (two queries)."""
    pressed = Entrant.objects.filter(pk=entrant).values_list("checked_in_at", flat=True).first()
    return pressed is not None and pressed >= check_ins_open(tournament)
