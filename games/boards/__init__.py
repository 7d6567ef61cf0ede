"""Rendering any game's table for one user: only engine.view() of their own seat reaches a template.

The game's kind (games/kinds/) turns that view into its board's context; this module adds what
every table shares, renders the regions and works out which of them changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template import engines
from django.utils.html import format_html
from markupsafe import Markup

from accounts.models import DELETED_BAKER, User, signed_in
from games import services
from games.boards.changes import Inputs, fingerprint, inputs
from games.boards.jinja import BoardVars, url
from games.boards.shared import TableAt, read, render_plain, render_region
from games.models import Game, Seat
from games.services import clocks
from games.services.chat import closed_because as chat_closed_because

WAITING_REGIONS = ("waiting",)
COMMON_REGIONS = ("version",)
TABLE_REGIONS = ("table",)
PLAYING_REGIONS = ("resign", "rematch")
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
    ctx["rematch"] = rematch_context(game, me)
    kind = game.spec
    engine = kind.engine
    state = table.state
    position = me.position if me is not None else None
    view = engine.view(state, position)
    running = game.status == Game.Status.RUNNING
    playing = running and position is not None and me is not None and not me.resigned
    legal = engine.legal_actions(state, position) if playing else []
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


def rematch_context(game: Game, me: Seat | None) -> dict[str, object] | None:
    """What a finished game's "Play again" panel shows this viewer (None: nothing to show)."""
    if game.status != Game.Status.OVER:
        return None
    event = services.played_for(game)
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
    return [] if game.pace == Game.Pace.RELAXED else [f"Pace: {game.get_pace_display()}"]


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
        "notices": list(reversed(game.notices))[:NOTICES_SHOWN],
        "can_take_back": (
            running
            and me is not None
            and me.resigned
            and services.handed_over(me) != services.DEACTIVATED
        ),
    }


def region_names(game: Game) -> tuple[str, ...]:
    """The independently swapped parts of this table's board."""
    if game.snapshot is None:
        return COMMON_REGIONS + WAITING_REGIONS
    return COMMON_REGIONS + TABLE_REGIONS + game.spec.regions + PLAYING_REGIONS


def region_template(game: Game, name: str) -> str:
    """The template of one board region."""
    if name in WAITING_REGIONS + COMMON_REGIONS + TABLE_REGIONS + PLAYING_REGIONS:
        return f"games/_{name}.html"
    return f"{game.spec.template_dir}/_{name}.html"


def render_parts(
    game: Game, ctx: Mapping[str, object], names: Iterable[str], request: HttpRequest | None = None
) -> dict[str, str]:
    """These regions of the board, each as the HTML that sits in the board and is swapped alone
    (with a request, as a page draws them: with its CSRF token)."""
    return {name: render_page_part(region_template(game, name), ctx, request) for name in names}


def render_page_part(template: str, ctx: Mapping[str, object], request: HttpRequest | None) -> str:
    """A board template as a page or an HTTP answer draws it (with a request: its CSRF token), or
    as a socket does (without one)."""
    if request is None:
        return render_plain(template, ctx)
    return Markup(engines["boards"].get_template(template).render(dict(ctx), request))


def board_html(game: Game, ctx: Mapping[str, object], parts: Mapping[str, str]) -> str:
    """The whole board (#board) around its rendered regions."""
    return render_plain("games/_board.html", {**ctx, "parts": list(parts.values())})


def render_board(
    game: Game,
    user: User | AnonymousUser,
    request: HttpRequest | None = None,
    table: TableAt | None = None,
) -> str:
    """The whole board (#board) for this user (`table`: as board_context)."""
    ctx = board_context(game, user, table)
    return board_html(game, ctx, render_parts(game, ctx, region_names(game), request))


def render_regions(game: Game, user: User | AnonymousUser) -> dict[str, str]:
    """Each region of the board by name, as a push swaps it in."""
    ctx = board_context(game, user)
    return render_parts(game, ctx, region_names(game))


# What a socket keeps of each region it sent: the fingerprint of the region's inputs and the hash
# of its HTML (two ints, not the HTML; None where the HTML is not known, so a move sends it).
Sent = dict[str, tuple[int, int | None]]


def region_prints(game: Game, ctx: Mapping[str, object]) -> dict[str, int]:
    """Each region's fingerprint for this viewer (what it shows, hashed; see changes.py)."""
    return {name: fingerprint(ctx, region_template(game, name)) for name in region_names(game)}


def region_inputs(game: Game, ctx: Mapping[str, object]) -> dict[str, Inputs]:
    """What each region shows this viewer: the plain values its template reads (changes.py)."""
    return {name: inputs(ctx, region_template(game, name)) for name in region_names(game)}


def render_shared(
    game: Game, ctx: Mapping[str, object], seen: Mapping[str, Inputs], names: Iterable[str]
) -> dict[str, str]:
    """These regions for one viewer; one that shows another viewer of this table the very same
    thing at this version was rendered once for both (shared.render_region)."""
    return {
        name: render_region(game, region_template(game, name), seen[name], ctx) for name in names
    }


def render_changed(
    game: Game, user: User | AnonymousUser, before: Sent, table: TableAt | None = None
) -> tuple[dict[str, str], Sent]:
    """The regions that changed since `before`, rendered, and what to keep now.

    Only a region whose inputs moved is rendered; it is sent only if its HTML differs too (an
    input can move without changing what shows).
    """
    ctx = board_context(game, user, table)
    seen = region_inputs(game, ctx)
    prints = {name: values.print for name, values in seen.items()}
    moved = [name for name, mark in prints.items() if before.get(name, (None,))[0] != mark]
    kept = {name: before[name] for name in prints if name not in moved}
    changed = {}
    for name, html in render_shared(game, ctx, seen, moved).items():
        kept[name] = (prints[name], hash(html))
        if before.get(name, (None, None))[1] != kept[name][1]:
            changed[name] = html
    return changed, kept


def render_diff(
    game: Game, user: User | AnonymousUser, before: Sent, base: int, table: TableAt | None = None
) -> tuple[str, Sent]:
    """The changed regions as one message, led by the version they lead from (`base`) and to.

    The page applies it only on top of the version it was computed from; on any other board it
    asks for the whole board instead, so a lost or reordered piece can never leave a region behind.
    """
    changed, kept = render_changed(game, user, before, table)
    if not changed:
        return "", kept
    return diff_marker(base, game.version) + "".join(changed.values()), kept


def board_message(text: str) -> str:
    """The message line above the board, as an error (a refusal, a failure), swapped by its id."""
    return format_html(
        '<p id="board-message" class="message error" role="alert" hx-swap-oob="true">{}</p>', text
    )


def diff_marker(base: int, version: int) -> str:
    """What leads a regions-only message: the version it leads from and to."""
    return format_html(
        '<template id="board-diff" data-base="{}" data-version="{}"></template>', base, version
    )


def render_whole(
    game: Game, user: User | AnonymousUser, table: TableAt | None = None
) -> tuple[str, Sent]:
    """The whole board, and what a socket keeps of each region, from one rendering."""
    ctx = board_context(game, user, table)
    seen = region_inputs(game, ctx)
    parts = render_shared(game, ctx, seen, seen)
    kept: Sent = {name: (seen[name].print, hash(html)) for name, html in parts.items()}
    return board_html(game, ctx, parts), kept
