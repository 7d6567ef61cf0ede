"""Tables the site seats and deals at once, which never wait for players (so no cap on waiting
tables counts them): a quick game against bots, a guided first game, the tables pairing and
tournaments seat (one, or a Swiss round's many in one transaction), and the house table. Each
opens as a person's table does (tables.py), then is seated, checked and dealt in one go."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext

from accounts.friends import block_words
from accounts.models import Block, User
from games import catalog
from games.kinds.base import AnyKind
from games.kinds.lessons import Lesson
from games.models import Game, Seat
from games.services.autoplay import inline_bots
from games.services.base import NotAllowed, ServiceError, lock
from games.services.dealing import deal, deal_drawn, draw_seats
from games.services.hosting import add_bot, bot_account
from games.services.joining import join
from games.services.tables import check_create, check_start, open_table, too_few_words


def quick_game(host: User, kind: str, *, rated: bool = True, level: str = "") -> Game:
    """A table of that kind with its quick bots (of the level asked for, if any) beside its host,
    started at once (it never waits: no cap counts it); unrated, a practice table with hints."""
    with transaction.atomic():
        try:
            spec = catalog.get(kind)
        except KeyError:
            raise ServiceError(gettext("That game is not on offer.")) from None
        if level and level not in spec.bot_levels:
            raise ServiceError(
                gettext("%(game)s has no such bot: choose one from the list.") % {"game": spec.name}
            )
        game = open_table(host, kind, spec.quick_capacity, rated=rated)
        for bot in [level] * len(spec.quick_bots) if level else spec.quick_bots:
            add_bot(game, host, bot)
        game = lock(game.pk)
        deal(game, check_start(game, host))
    inline_bots(game.pk)
    return game


def guided_game(learner: User, kind: AnyKind, lesson: Lesson) -> Game:
    """A guided first game (Game.guided): the learner against the lesson's one bot, dealt at once
    from its fixed deal and seed; private, relaxed, unrated. Made in the caller's transaction
    (the tutorial records its own row beside it), which calls inline_bots once it commits."""
    game = open_table(  # dealt at once below: it never waits, so no cap counts it
        learner,
        kind.slug,
        2,
        dict(lesson.options),
        private=True,
        watchers=Game.Watchers.PLAYERS,
        pace=Game.Pace.RELAXED,
        rated=False,
    )
    game.seed = lesson.seed  # the same seats and bot choices for everyone who learns
    game.guided = True  # listed nowhere, counted nowhere, never handed on for absence
    game.save(update_fields=["seed", "guided"])
    add_bot(game, learner, lesson.bot)
    game = lock(game.pk)
    deal(game, check_start(game, learner), lesson.setup)
    return game


def seat_people(
    kind: str,
    people: list[User],
    *,
    pace: str = Game.Pace.RELAXED,
    rated: bool = True,
    bots: list[str] | None = None,
    private: bool = False,
) -> Game:
    """A table of these people (the first hosts) and these bot levels, started at once: how
    quick pairing and tournaments seat the people they matched. Refused whole (nothing made)
    if any of them may not sit together (a block) or the count does not fit the game."""
    levels = list(bots or [])
    with transaction.atomic():
        if len({p.pk for p in people}) != len(people) or not people:
            raise ServiceError(gettext("Each person sits once, and a table needs someone at it."))
        host = people[0]
        # Dealt below: it never waits, so no cap on waiting tables counts it (check_waiting).
        game = open_table(
            host, kind, len(people) + len(levels), pace=pace, rated=rated, private=private
        )
        for person in people[1:]:
            join(game, person, game.invite)
        for level in levels:
            add_bot(game, host, level)
        game = lock(game.pk)
        deal(game, check_start(game, host))
    inline_bots(game.pk)
    return game


def seat_tables(
    kind: str,
    tables: Sequence[Sequence[User]],
    *,
    pace: str = Game.Pace.RELAXED,
    rated: bool = True,
    bots: Sequence[Sequence[str]] | None = None,
    private: bool = False,
) -> list[Game]:
    """Many tables at once, each as seat_people seats one (the first person hosts, then the
    others, then the bot levels; started at once), in one transaction: refused whole (nothing
    made) if any table is refused. Its rows are made a few queries for all (the games, their
    seats, the blocks among everyone), each table then dealt as any table is: a Swiss round's 50
    tables one seat_people after another took 1,565 queries, and no page moves before all
    commit."""
    if not tables:
        return []
    levels = [list(b) for b in bots] if bots is not None else [[] for _ in tables]
    if len(levels) != len(tables):
        raise ServiceError(gettext("Each table needs its list of bots, even an empty one."))
    with transaction.atomic():
        spec = check_tables(kind, tables, levels)
        opts = {o.name: o.default for o in spec.options}
        games = Game.objects.bulk_create(
            Game(
                kind=kind,
                host=people[0],
                capacity=len(people) + len(its_bots),
                options=opts,
                private=private,
                pace=pace,
                rated=rated,
            )
            for people, its_bots in zip(tables, levels, strict=True)
        )
        accounts = bots_for(levels, {p.pk for people in tables for p in people})
        seats = [
            new_seats(game, people, its_bots, accounts)
            for game, people, its_bots in zip(games, tables, levels, strict=True)
        ]
        for game, its_seats in zip(games, seats, strict=True):
            draw_seats(game, its_seats)  # before they are saved: no update a table
        Seat.objects.bulk_create(seat for its_seats in seats for seat in its_seats)
        for game, its_seats in zip(games, seats, strict=True):
            deal_drawn(game, its_seats)
    for game in games:
        inline_bots(game.pk)
    return games


def check_tables(kind: str, tables: Sequence[Sequence[User]], levels: list[list[str]]) -> AnyKind:
    """The kind, if every table may be seated as seat_people would seat it, or a ServiceError
    with the words its join or bot would have been refused with (one query for the blocks)."""
    spec: AnyKind | None = None
    for people, its_bots in zip(tables, levels, strict=True):
        if len({p.pk for p in people}) != len(people) or not people:
            raise ServiceError(gettext("Each person sits once, and a table needs someone at it."))
        spec = check_create(kind, len(people) + len(its_bots), {})
        if len(people) + len(its_bots) < spec.min_players:
            raise ServiceError(too_few_words(spec.min_players))
        for level in its_bots:
            if level not in spec.bot_levels:
                raise ServiceError(gettext("There is no %(level)s bot.") % {"level": repr(level)})
    assert spec is not None  # seat_tables asks for one table at least
    everyone = [p.pk for people in tables for p in people]
    blocks = set(
        Block.objects.filter(blocker_id__in=everyone, blocked_id__in=everyone).values_list(
            "blocker_id", "blocked_id"
        )
    )
    for people in tables:
        seated: list[int] = []
        for person in people:  # as each join is refused, in its order (block_at_table)
            words = block_words(
                any((other, person.pk) in blocks for other in seated),
                any((person.pk, other) in blocks for other in seated),
            )
            if words:
                raise NotAllowed(words)
            seated.append(person.pk)
    return spec


def bots_for(levels: list[list[str]], people: set[int]) -> dict[str, list[User]]:
    """For each bot level, as many house bot accounts as one table seats of it (add_bot's)."""
    accounts: dict[str, list[User]] = {}
    for level in {level for its_bots in levels for level in its_bots}:
        most = max(its_bots.count(level) for its_bots in levels)
        taken = set(people)
        for _ in range(most):
            bot = bot_account(level, taken)
            taken.add(bot.pk)
            accounts.setdefault(level, []).append(bot)
    return accounts


def new_seats(
    game: Game, people: Sequence[User], levels: list[str], accounts: dict[str, list[User]]
) -> list[Seat]:
    """A new table's seats in joining order: its people, then its bots."""
    seats = [Seat(game=game, user=person) for person in people]
    used: dict[str, int] = {}
    for level in levels:
        n = used.get(level, 0)
        used[level] = n + 1
        seats.append(Seat(game=game, user=accounts[level][n], bot=level))
    return seats


def house_table(kind: str, levels: list[str]) -> Game:
    """House bots alone at these levels (the first hosts), started at once: unrated, public, its
    bots at a pace watchers follow (clocks.pace_house_bots); the lobby shows it if nothing else."""
    with transaction.atomic():
        if not levels:
            raise ServiceError(gettext("A house table needs its bots."))
        spec = check_create(kind, len(levels), {})
        if any(level not in spec.bot_levels for level in levels):
            raise ServiceError(gettext("%(game)s has no such bot.") % {"game": spec.name})
        host = bot_account(levels[0], set())
        game = open_table(host, kind, len(levels), host_bot=levels[0], rated=False)
        for level in levels[1:]:
            add_bot(game, host, level)
        game = lock(game.pk)
        deal(game, check_start(game, host))
    inline_bots(game.pk)
    return game
