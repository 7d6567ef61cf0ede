"""The only code that changes who is looking for a game: look, stop, and the pairing pass.

A pass locks its pool's row (select_for_update: one pass at a time per game and pace, in every
process; on SQLite the whole database has one writer), lets go of the people whose waiting page
went quiet or who sat down at another live table, draws the groups (games.pairing.draw), seats
each through games.services.seat_people and deletes their seeks, all in one transaction. Once
it commits, every open page of each person seated is sent to their table.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Block, Rating, User
from accounts.ratings import new_rating
from games import catalog, events, services
from games.models import LIVE, TURN_BASED, Game, Seat
from games.pairing import draw
from games.pairing.models import Pool, Seek
from games.services import NotAllowed, ServiceError, clocks, lock_user

logger = logging.getLogger(__name__)

GRACE_SECONDS = 10.0
"""A seek whose waiting page has not said it is open for this long is let go (a page reloaded
comes back well within it; its socket says so every live.BEAT_SECONDS)."""
BOTS_AFTER_LEAST = 5
BOTS_AFTER_MOST = 600
LOOKING_CACHE_SECONDS = 1
LOOKING_KEY = "pairing:looking"


def now() -> datetime:
    """The pairing's time: the clocks' (tests move it by patching clocks.now)."""
    return clocks.now()


@dataclass(frozen=True)
class Paired:
    """A table a pass started, and the people it seated there."""

    game_id: int
    url: str
    people: tuple[int, ...]


# --- look and stop ------------------------------------------------------------------------------


def playing_live(user: User) -> Game | None:
    """A running table at a live pace where this person plays against another person now."""
    others = Seat.objects.filter(game=OuterRef("pk"), bot="").exclude(user=user)
    return (
        Game.objects.filter(status=Game.Status.RUNNING, seats__user=user, seats__bot="")
        .exclude(pace__in=TURN_BASED)
        .filter(Exists(others))
        .order_by("-started_at")
        .first()
    )


def check_search(kind: str, pace: str, fewest: int, most: int, bots_after: int | None) -> None:
    """Refuse, in words, a search the game does not allow."""
    try:
        spec = catalog.get(kind)
    except KeyError:
        raise ServiceError(gettext("That game is not on offer.")) from None
    if pace not in Game.Pace.values:
        raise ServiceError(gettext("There is no %(pace)s pace.") % {"pace": repr(pace)})
    low, high = spec.min_players, spec.max_players
    if not low <= fewest <= most <= high:
        raise ServiceError(
            gettext(
                "%(game)s seats %(low)d to %(high)d bakers: choose how many from %(low)d to "
                "%(high)d, the fewest first."
            )
            % {"game": spec.name, "low": low, "high": high}
        )
    if bots_after is not None and not BOTS_AFTER_LEAST <= bots_after <= BOTS_AFTER_MOST:
        raise ServiceError(
            gettext("Bots may fill the table after %(least)d to %(most)d seconds.")
            % {"least": BOTS_AFTER_LEAST, "most": BOTS_AFTER_MOST}
        )


def check_seeker(user: User) -> None:
    """Refuse someone who may not look now: no account, or playing a live game already."""
    if not user.is_authenticated or user.is_bot or not user.is_active:
        raise NotAllowed(gettext("Log in to look for a game."))
    playing = playing_live(user)
    if playing is not None:
        raise ServiceError(
            gettext("You are playing %(table)s now: finish it before you look for another.")
            % {"table": str(playing)}
        )


def rating_of(user: User, kind: str) -> int:
    """The person's displayed rating at this game (a newcomer's if they have none)."""
    rating = Rating.objects.filter(user=user, kind=kind).values_list("rating", flat=True).first()
    return rating if rating is not None else new_rating(user.pk, kind).rating


@transaction.atomic
def look(
    user: User,
    kind: str,
    pace: str,
    fewest: int,
    most: int,
    bots_after: int | None = None,
    bots_welcome: bool = False,
) -> Seek:
    """Start looking for a game (or look for another instead: one seek a person). The caller
    runs a pass of its pool once this commits (pass_pool), so people who fit sit down at once.
    `bots_welcome`: bot accounts may be seated with this person (a bot account's own seek
    welcomes them always: bots sit with bots, and with the people who said yes)."""
    check_search(kind, pace, fewest, most, bots_after)
    lock_user(user)  # a person's row first: two tabs' presses queue here
    old = Seek.objects.filter(user=user).values_list("kind", "pace").first()
    lock_pools([(kind, pace), *([old] if old else [])])
    check_seeker(user)  # after the pools' locks: a pass that seated them has committed
    at = now()
    seek, _ = Seek.objects.update_or_create(
        user=user,
        defaults={
            "kind": kind,
            "pace": pace,
            "fewest": fewest,
            "most": most,
            "bots_after": bots_after,
            "bots_welcome": bots_welcome or user.plays_by_api,
            "rating": rating_of(user, kind),
            "created_at": at,
            "last_seen": at,
        },
    )
    cache.delete_many([LOOKING_KEY, sizes_key(kind, pace)])  # else at worst a second old
    return seek


@transaction.atomic
def stop(user: User) -> bool:
    """Stop looking; whether the person was looking (a pass under way ends first)."""
    lock_user(user)
    old = Seek.objects.filter(user=user).values_list("kind", "pace").first()
    if old is None:
        return False
    lock_pools([old])
    deleted, _ = Seek.objects.filter(user=user).delete()
    cache.delete_many([LOOKING_KEY, sizes_key(*old)])  # else at worst a second old
    return deleted > 0


def stop_on_logout(
    sender: object, request: HttpRequest, user: User | None, **kwargs: object
) -> None:
    """Logging out takes the person out of the pool (user_logged_out)."""
    if user is not None and user.is_authenticated:
        stop(user)


def still_here(user_id: int) -> Seek | None:
    """The waiting page says it is open: its seek as it now stands, or None if there is none."""
    seek = Seek.objects.filter(user_id=user_id).first()
    if seek is not None:
        seek.last_seen = now()
        Seek.objects.filter(pk=seek.pk).update(last_seen=seek.last_seen)
    return seek


def still_here_all(user_ids: Iterable[int]) -> None:
    """These people's API event streams are open (all of a process's at once, one write:
    games/api/event_stream.py): their seeks stay, as a waiting page's socket keeps one."""
    Seek.objects.filter(user_id__in=list(user_ids)).update(last_seen=now())


def table_since(user_id: int, since: datetime) -> str | None:
    """The URL of the running table this person was seated at since then, if any (a pass's
    push that never came is made up by the waiting page asking)."""
    return newest_table(seated_since(user_id, since))


def seated_since(user_id: int, since: datetime) -> QuerySet[Seat]:
    """This person's seats taken since then at running tables."""
    return Seat.objects.filter(
        user_id=user_id, bot="", joined_at__gte=since, game__status=Game.Status.RUNNING
    )


def newest_table(seats: QuerySet[Seat]) -> str | None:
    """The URL of the table of the newest of these seats, if any."""
    seat = seats.select_related("game").order_by("-joined_at").first()
    return None if seat is None else seat.game.get_absolute_url()


# --- the pass -----------------------------------------------------------------------------------


# A seek joins, changes or leaves a pool only under that pool's lock (look, stop, the pass),
# so a pass reads its pool's people as they stay until it commits. Lock order: a person's row,
# then pools in (kind, pace) order, then the games the pass makes.
def lock_pool(kind: str, pace: str) -> Pool:
    """The pool's row, made the first time, locked until the transaction ends."""
    pool, _ = Pool.objects.get_or_create(kind=kind, pace=pace)
    return Pool.objects.select_for_update().get(pk=pool.pk)


def lock_pools(keys: Iterable[tuple[str, str]]) -> None:
    """These pools' rows locked, in one order everywhere."""
    for kind, pace in sorted(set(keys)):
        lock_pool(kind, pace)


class SeekRow(Protocol):
    """What the draw needs of a seek (a Seek, or a row of its values)."""

    user_id: int
    kind: str
    pace: str
    fewest: int
    most: int
    rating: int
    bots_after: int | None
    bots_welcome: bool
    created_at: datetime


class PoolRow(SeekRow, Protocol):
    """A seek of a pool as a pass reads it: also when its waiting page last asked, and whether
    its person is a bot account (read at each pass: one may become a bot account while it looks)."""

    last_seen: datetime
    user__plays_by_api: bool


SEEK_FIELDS = (
    "user_id",
    "kind",
    "pace",
    "fewest",
    "most",
    "rating",
    "bots_after",
    "bots_welcome",
    "created_at",
)


def seeker(seek: SeekRow, bot: bool = False) -> draw.Seeker:
    """A seek as the draw reads it (`bot`: its person is a bot account)."""
    return draw.Seeker(
        person=seek.user_id,
        kind=seek.kind,
        pace=seek.pace,
        fewest=seek.fewest,
        most=seek.most,
        rating=seek.rating,
        since=seek.created_at.timestamp(),
        bots_after=None if seek.bots_after is None else float(seek.bots_after),
        bot=bot,
        bots_welcome=seek.bots_welcome,
    )


def pool_seeks(kind: str, pace: str) -> list[PoolRow]:
    """The pool's seeks as rows of values (a pass reads hundreds)."""
    rows = Seek.objects.filter(kind=kind, pace=pace)
    return list(rows.values_list(*SEEK_FIELDS, "last_seen", "user__plays_by_api", named=True))


def pool_people(kind: str, pace: str) -> QuerySet[Seek, Mapping[str, object]]:
    """The people looking in this pool, as a subquery (never a list of hundreds of ids)."""
    return Seek.objects.filter(kind=kind, pace=pace).values("user_id")


def gone(kind: str, pace: str, seeks: list[PoolRow], at: datetime) -> set[int]:
    """The people of the pool's seeks to let go: their waiting page went quiet, their account
    was closed, or they sat down at a live table (open or running) with another person since
    they started looking (a practice table against bots alone keeps them looking, as look
    allows); everyone, if the game is no longer on offer."""
    if kind not in {spec.slug for spec in catalog.available()}:
        return {s.user_id for s in seeks}
    quiet = at - timedelta(seconds=GRACE_SECONDS)
    out = {s.user_id for s in seeks if s.last_seen < quiet}
    since = {s.user_id: s.created_at for s in seeks}
    people = pool_people(kind, pace)
    closed = User.objects.filter(is_active=False, pk__in=people).values_list("pk", flat=True)
    out.update(closed)
    seats = (
        Seat.objects.filter(user_id__in=people, bot="", game__status__in=LIVE)
        .exclude(game__pace__in=TURN_BASED)
        .values_list("user_id", "joined_at", "game_id")
    )
    sat = {(u, g) for u, joined, g in seats if u in since and joined >= since[u]}
    shared = with_people({g for _, g in sat})
    out.update(u for u, g in sat if g in shared)
    return out


def with_people(games: set[int]) -> set[int]:
    """Those of these tables where more than one person sits (not a practice table against
    bots alone); no query for none, as in most passes."""
    if not games:
        return set()
    rows = Seat.objects.filter(game_id__in=games, bot="").values("game_id")
    counted = rows.annotate(n=Count("pk")).filter(n__gt=1).order_by()
    return {r["game_id"] for r in counted}


def blocks_in(kind: str, pace: str) -> frozenset[tuple[int, int]]:
    """Every block between two people looking in this pool, either way."""
    people = pool_people(kind, pace)
    rows = Block.objects.filter(blocker_id__in=people, blocked_id__in=people)
    return draw.blocked_set(rows.values_list("blocker_id", "blocked_id"))


def seat_group(group: draw.Group, users: dict[int, User]) -> Paired | None:
    """Start the group's table (refused whole if something changed meanwhile, such as a block
    made a moment ago: they then wait for the next pass)."""
    spec = catalog.get(group.kind)
    try:
        game = services.seat_people(
            group.kind,
            [users[p] for p in group.people],
            pace=group.pace,
            bots=[spec.house_bot] * group.bots,
        )
    except ServiceError as error:
        logger.info("a pairing of %s was refused: %s", group.people, error)
        return None
    Seek.objects.filter(user_id__in=group.people).delete()
    return Paired(game.pk, game.get_absolute_url(), group.people)


SEATED_SECONDS = 60
"""How long after a pass seated a person a page of theirs that asks is still sent to the table
(a press whose answer was lost with its process, a search the page found over)."""


def tell(paired: list[Paired]) -> None:
    """Once committed: every open page of each person seated goes to their table."""
    for table in paired:
        for person in table.people:
            events.seated.tell(person, table.url)


def just_seated(user_id: int) -> str | None:
    """The running live table with another person (not a practice table against bots alone)
    this person sat down at within the last SEATED_SECONDS, if any: read from the seats, which
    every process shares (Django's cache may be each process's own)."""
    recent = timezone.now() - timedelta(seconds=SEATED_SECONDS)
    others = Seat.objects.filter(game=OuterRef("game"), bot="").exclude(user_id=user_id)
    seats = seated_since(user_id, recent).filter(Exists(others))
    return newest_table(seats.exclude(game__pace__in=TURN_BASED))


def pass_pool(kind: str, pace: str) -> list[Paired]:
    """One pairing pass of a game and pace (see the module's docstring): the tables it started."""
    at = now()
    with transaction.atomic():
        pool = lock_pool(kind, pace)
        seeks = pool_seeks(kind, pace)
        leaving = gone(kind, pace, seeks, at)
        if leaving:
            Seek.objects.filter(user_id__in=leaving, kind=kind, pace=pace).delete()
        waiting = [seeker(s, s.user__plays_by_api) for s in seeks if s.user_id not in leaving]
        groups = draw.pair(waiting, at.timestamp(), blocks_in(kind, pace))
        users = User.objects.in_bulk([p for g in groups for p in g.people])
        paired = [p for p in (seat_group(g, users) for g in groups) if p is not None]
        if leaving or paired:  # a pass that changed nothing writes nothing
            pool.passed_at = at
            pool.save(update_fields=["passed_at"])
            cache.delete_many([LOOKING_KEY, sizes_key(kind, pace)])  # else at worst a second old
        transaction.on_commit(lambda: tell(paired))
    return paired


def pools_looking() -> list[tuple[str, str]]:
    """Every game and pace where someone is looking."""
    return list(Seek.objects.values_list("kind", "pace").distinct().order_by("kind", "pace"))


def sizes_key(kind: str, pace: str) -> str:
    """The cache key of a pool's counts of bakers (games/pairing/shown.py: pool_sizes), forgotten
    whenever someone starts or stops looking in it."""
    return f"pairing:sizes:{kind}:{pace}"
