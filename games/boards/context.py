"""What a board shows one user, built from engine.view() of their own seat only: the game's kind
(games/kinds/) turns that view into its board's context, and this module adds what every table
shares (who sits where, who is here, the clocks, the rematch, the notices).

Read for a move's render by render.py; the table's rows as this process keeps them: shared.py.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.utils.html import format_html
from django.utils.translation import gettext

from accounts.models import DELETED_BAKER, User, signed_in
from games import services
from games.boards.jinja import BoardVars, url
from games.boards.shared import TableAt, read
from games.models import Game, Seat
from games.services import clocks
from games.services.chat import closed_because as chat_closed_because

NOTICES_SHOWN = 4


def board_context(
    game: Game, user: User | AnonymousUser, table: TableAt | None = None
) -> dict[str, object]:
    """Everything a board template needs for this user, built from their seat's view only.

    `table`: the seats and state already read for this game row (shared.table_at), else read here.
    """
    table = table or read(game)
    seats = table.seats
    table_url = url("games:table", game.pk)  # as game.get_absolute_url(), reversed once a table
    me = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    ctx = BoardVars.of(
        {
            "game": game,
            "spec": game.spec,
            "seats": seats,
            "me": me,
            # Whether the viewer has a seat, apart from which seat: what the version region reads,
            # so every seated rival shares one render of it (a Seat is a different value for each).
            "seated": me is not None,
            # Whether the table's chat still takes lines: a page re-reads its chat panel when
            # this changes (a moderator's abort takes the box and Send away on every screen).
            "chat_open": not chat_closed_because(game),
            "is_host": user is not None and user.pk == game.host_id,
            "version": game.version,
            "empty_seats": range(max(0, game.capacity - len(seats))),
            # Why a block keeps this viewer from the free seats, as joining would refuse them
            # ("blocked", "blocking"; "" when nothing does): the waiting room offers no seat then.
            "kept_out": kept_out(game, user, table, me),
            # Why the sweep closed the table, nobody having started it ("" when it did not).
            "unstarted": services.closed_unstarted(game),
            "user": user,
            "option_labels": [*game.spec.option_labels(game.options), *pace_label(game)],
            "resigned_positions": {s.position for s in seats if s.resigned},
            # A practice table against bots gives hints: the page shows its "Suggest a move".
            "hints_on": services.hints_on(game, seats),
            "your_move": False,
            # The table's own link: a private one carries its invite, so a friend gets in with it.
            "invite_path": table_url + f"?invite={game.invite}" if game.private else table_url,
        }
    )
    if game.status == Game.Status.OPEN or game.snapshot is None:
        return ctx
    ctx["rematch"] = rematch_context(game, me, table)
    kind = game.spec
    engine = kind.engine
    state = table.state
    position = me.position if me is not None else None
    view = engine.view(state, position)
    running = game.status == Game.Status.RUNNING
    # A bot account's seat is played through the API only (services.moves refuses its page's
    # moves): its page shows the table without move controls, and says so.
    by_api = me is not None and bool(getattr(user, "plays_by_api", False))
    ctx["by_api"] = by_api and running
    playing = running and position is not None and me is not None and not me.resigned
    legal = engine.legal_actions(state, position) if playing and not by_api else []
    ctx["your_move"] = bool(legal) and game.status == Game.Status.RUNNING
    ctx.update(table_context(game, table, me))
    moment = kind.moment(view)
    if moment is not None:
        ctx["moment"] = moment
    ctx.update(kind.board(game, view, legal, me, seats))
    return ctx


def kept_out(game: Game, user: User | AnonymousUser, table: TableAt, me: Seat | None) -> str:
    """Why a block keeps this viewer from the open table's free seats ("" if none does; asked
    only of a signed-in viewer without a seat while one is free, and read once per version for
    all of them: see shared.Blocks)."""
    if game.status != Game.Status.OPEN or me is not None or not signed_in(user):
        return ""
    if len(table.seats) >= game.capacity:
        return ""  # every seat is taken: that is said first, as joining says it
    return table.kept_out().why(user.pk)


def rematch_context(game: Game, me: Seat | None, at: TableAt) -> dict[str, object] | None:
    """What a finished game's "Play again" panel shows this viewer (None: nothing to show);
    `at`: the table as read at this version (its event read once for all its viewers)."""
    if game.status != Game.Status.OVER:
        return None
    event = at.played_for()
    if event is not None:  # the event seats its people again: back to it, no rematch
        return {"event": event, "table": None, "can_offer": False, "can_answer": False}
    may_offer = me is not None and not me.resigned and not me.user.is_bot
    offered = services.current_rematch(game)
    if offered is None:
        return {"table": None, "can_offer": True, "can_answer": False} if may_offer else None
    seats = list(offered.seats.select_related("user").order_by("joined_at", "pk"))
    mine = next((s for s in seats if me is not None and s.user_id == me.user_id), None)
    open_offer = offered.status == Game.Status.OPEN
    table = {
        "pk": offered.pk,
        "url": offered.get_absolute_url(),
        "status": offered.status,
        "host": next((s.user.username for s in seats if s.user_id == offered.host_id), ""),
        "declined": [s.user.username for s in seats if s.accepted is False],
    }
    if open_offer:
        found = services.read_answers(offered, seats)
        table["waiting"] = [s.user.username for s in found.waiting]
        table["away"] = [s.user.username for s in found.away]
        table["too_few"] = found.needs_away
    return {
        "table": table,
        "can_answer": may_offer and open_offer and mine is not None and mine.accepted is None,
        "can_offer": may_offer and offered.status == Game.Status.CANCELLED,
        # Whoever said yes and sits at the rematch once it is dealt: their open pages go there.
        "follow": offered.status == Game.Status.RUNNING
        and mine is not None
        and mine.accepted is True
        and mine.position is not None,
    }


def pace_label(game: Game) -> list[str]:
    """The table's pace in words, when it has a clock ("Pace: Fast")."""
    if game.pace == Game.Pace.RELAXED:
        return []
    return [gettext("Pace: %(pace)s") % {"pace": game.get_pace_display()}]


def epoch_ms(at: datetime | None) -> int | None:
    """A time as milliseconds since the epoch (what the page's clock script reads)."""
    return None if at is None else int(at.timestamp() * 1000)


def seat_order(seat: Seat) -> int:
    """A seated seat's position (for sorting)."""
    return seat.position if seat.position is not None else -1


def local_day(at: datetime) -> str:
    """A moment on a seat's tag as a <time> that static/js/local-time.js writes in the reader's
    zone; its UTC words ("12 Dec, 18:00 UTC") meanwhile, and for a page without scripts."""
    return format_html(
        '<time datetime="{}" data-local="day">{}</time>', at.isoformat(), clocks.day_words(at)
    )


def seen_words(at: datetime | None, here: str, seat: Seat) -> str:
    """When a person not here now was last at a table page ("" if never, or here, or a bot)."""
    if at is None or here == "here" or seat.bot:
        return ""
    return local_day(at)


def table_context(game: Game, table: TableAt, me: Seat | None) -> dict[str, object]:
    """Who sits where, who is here, whom the table waits for, the clocks, the watchers, notices."""
    engine = game.spec.engine
    running = game.status == Game.Status.RUNNING
    active = set(engine.active_seats(table.state)) if running else set()
    people = {s.user_id for s in table.seats}
    pace = clocks.pace(game)
    # Who is on vacation, and when each was last at a table page: read now (one query), as
    # presence is, not with the table's version.
    where = clocks.whereabouts(people) if game.turn_based else {}
    rows = []
    for seat in sorted((s for s in table.seats if s.position is not None), key=seat_order):
        handed = services.handed_over(seat)
        mine = me is not None and seat.pk == me.pk
        # The viewer is at the table (the page drawn before their socket opened says so too).
        here = "here" if mine else table.presence.status(seat.user_id)
        if game.turn_based and here != "here":
            here = "offline"  # no seat here is handed over for want of a socket: nobody reconnects
        found = where.get(seat.user_id, clocks.NOWHERE)
        vacation = found.away_until if not seat.bot else None
        held, why = clocks.held_until(seat, pace, vacation) if running else (None, "")
        # The person deleted their account (before or after a bot took the seat): nobody to await.
        gone = seat.user.deleted_at is not None
        clocked = running and not seat.bot
        rows.append(
            {
                "name": seat.name,
                "player": DELETED_BAKER if gone else seat.user.username,
                "me": mine,
                "bot": seat.bot,
                "api_bot": seat.user.plays_by_api,  # a bot account: marked beside its name
                "handed_over": services.DELETED if gone and handed else handed,
                "presence": "gone" if gone else "bot" if seat.bot and not handed else here,
                "waiting": seat.position in active and running,
                # Only a running game's clocks count down (an ended one's were stopped anyway);
                # a bot's deadline is a house table's pace, no clock (clocks.pace_house_bots).
                "deadline": epoch_ms(seat.deadline) if clocked else None,
                "move_ends": epoch_ms(clocks.move_ends(seat)) if clocked else None,
                "clock_starts": epoch_ms(held),
                "clock_held": why,
                "turn_based": game.turn_based,
                "away_until": local_day(vacation) if vacation is not None else "",
                "last_seen": seen_words(found.last_seen, here, seat),
            }
        )
    return {
        "at_table": rows,
        "pace": pace,
        "pace_words": pace.words() if pace is not None else "",
        "spectators": table.presence.spectators(people),
        "notices": [services.notice_words(n) for n in list(reversed(game.notices))[:NOTICES_SHOWN]],
        "can_take_back": (
            running
            and me is not None
            and me.resigned
            and services.handed_over(me) != services.DEACTIVATED
        ),
    }
