"""Tables before the game: a person's new table, checked and opened (at most a few waiting at
once), and the check that it may start. The tables the site seats and deals at once (quick games,
guided games, pairing's and tournaments' tables, the house table) are seating.py; joining and
leaving, joining.py; the host's bots and cancel, hosting.py; closing the tables nobody started,
unstarted.py; the deal, dealing.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict, Unpack

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext, ngettext

from accounts.models import User
from games import catalog
from games.kinds.base import AnyKind
from games.models import TURN_BASED, Game, Seat
from games.services.base import (
    ServiceError,
    lock_user,
    seats_in_order,
)
from games.services.hosting import check_host

# --- create -------------------------------------------------------------------------------


def check_create(kind: str, capacity: int, options: Mapping[str, str]) -> AnyKind:
    """The kind of a valid new table, or a ServiceError."""
    try:
        spec = catalog.get(kind)
    except KeyError:
        raise ServiceError(gettext("That game is not on offer.")) from None
    if not spec.min_players <= capacity <= spec.max_players:
        raise ServiceError(
            gettext("%(game)s seats %(fewest)d to %(most)d players.")
            % {"game": spec.name, "fewest": spec.min_players, "most": spec.max_players}
        )
    for option in spec.options:
        value = options.get(option.name, option.default)
        if value not in {c for c, _ in option.choices}:
            raise ServiceError(
                gettext("%(option)s cannot be %(value)s.")
                % {"option": gettext(option.label), "value": repr(value)}
            )
    return spec


# The tables one person may keep waiting for players at once (open, not started): enough to offer
# a game to the lobby and to a friend or two, too few to crowd anyone else off the lobby. A
# turn-based table waits days for its players, and people play several at once: a few more. A
# rematch is not counted: it seats the finished game's own people, one per finished game.
WAITING_TABLES = 3
WAITING_TURN_BASED_TABLES = 5


def waiting_tables(host: User, turn_based: bool) -> QuerySet[Game]:
    """The tables of that kind of pace the person opened that still wait for their start."""
    kept = Game.objects.filter(host=host, status=Game.Status.OPEN, rematch_of__isnull=True)
    paced = Q(pace__in=TURN_BASED)
    return kept.filter(paced) if turn_based else kept.exclude(paced)


def check_waiting(host: User, pace: str) -> None:
    """Refuse a new waiting table to a person who keeps the most of them already."""
    turn_based = pace in TURN_BASED
    most = WAITING_TURN_BASED_TABLES if turn_based else WAITING_TABLES
    if waiting_tables(host, turn_based).count() >= most:
        raise ServiceError(waiting_words(most, turn_based))


def waiting_words(most: int, turn_based: bool) -> str:
    """Why a person keeping the most waiting tables may not open another, in their language."""
    if turn_based:
        words = ngettext(
            "You already have %(most)d turn-based table waiting for players, the most one person "
            "may: start or cancel it before you open another.",
            "You already have %(most)d turn-based tables waiting for players, the most one person "
            "may: start or cancel one of them before you open another.",
            most,
        )
    else:
        words = ngettext(
            "You already have %(most)d table waiting for players, the most one person may: "
            "start or cancel it before you open another.",
            "You already have %(most)d tables waiting for players, the most one person may: "
            "start or cancel one of them before you open another.",
            most,
        )
    return words % {"most": most}


def too_few_words(fewest: int) -> str:
    """Why a table with too few seated cannot start, in the reader's language."""
    return ngettext(
        "At least %(fewest)d player must sit to start.",
        "At least %(fewest)d players must sit to start.",
        fewest,
    ) % {"fewest": fewest}


class TableChoices(TypedDict, total=False):
    """What a new table's host may choose beside its game, size and options (open_table says
    each one's default)."""

    private: bool
    host_bot: str
    watchers: str
    spectator_chat: bool
    pace: str
    rated: bool


@transaction.atomic
def create_game(
    host: User,
    kind: str,
    capacity: int,
    options: Mapping[str, str] | None = None,
    **choices: Unpack[TableChoices],
) -> Game:
    """A new open table with its host seated (a bot level when a bot account hosts), unless
    the host keeps the most tables waiting already (check_waiting); an unrated table is
    practice: its result moves no rating, and a seat may ask for a hint."""
    lock_user(host)  # two forms posted at once count each other
    check_waiting(host, choices.get("pace", Game.Pace.RELAXED))
    return open_table(host, kind, capacity, options, **choices)


def open_table(
    host: User,
    kind: str,
    capacity: int,
    options: Mapping[str, str] | None = None,
    *,
    private: bool = False,
    host_bot: str = "",
    watchers: str = Game.Watchers.ANYONE,
    spectator_chat: bool = False,
    pace: str = Game.Pace.RELAXED,
    rated: bool = True,
) -> Game:
    """A new open table with its host seated, whatever the host keeps waiting: for the tables
    dealt in the same transaction (a quick game, a tutorial), which never wait."""
    chosen = dict(options or {})
    spec = check_create(kind, capacity, chosen)
    if watchers not in Game.Watchers.values:
        raise ServiceError(
            gettext("Choose who may watch: anyone, signed-in people or only the players.")
        )
    if pace not in Game.Pace.values:
        raise ServiceError(gettext("There is no %(pace)s pace.") % {"pace": repr(pace)})
    opts = {o.name: chosen.get(o.name, o.default) for o in spec.options}
    game = Game.objects.create(
        kind=kind,
        host=host,
        capacity=capacity,
        options=opts,
        private=private,
        watchers=watchers,
        spectator_chat=spectator_chat,
        pace=pace,
        rated=rated,
    )
    Seat.objects.create(game=game, user=host, bot=host_bot)
    return game


# --- start --------------------------------------------------------------------------------


def check_start(game: Game, user: User) -> list[Seat]:
    """The seats of a table that may start now, or a ServiceError."""
    check_host(game, user)
    seats = seats_in_order(game)
    if len(seats) < game.spec.min_players:
        raise ServiceError(too_few_words(game.spec.min_players))
    return seats
