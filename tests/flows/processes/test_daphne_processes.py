"""Several Daphne processes sharing one PostgreSQL and one Redis, as the README deploys them.

Real processes, started by the test on free ports, on the test's own database; a move posted
through one process must reach a person whose socket is open on the other.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from bench.web.site import Site
from games.models import Game
from tests.conftest import needs_env, own_prefix
from tests.live.test_consumer import batch_ids
from tests.support.daphnes import Person, RedisServer, daphnes, redis_server_or_skip
from tests.support.sockets import session_of, shown_version

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]

LAYER_LOST = 3012
LAYERS = ["pubsub", "core"]  # CHANNEL_LAYER: the default, and channels-redis's core layer


def shared_redis_site(**extra: str) -> Iterator[Site]:
    """Two Daphne processes on the test's database and the shared Redis, under a prefix of
    their own."""
    prefix = own_prefix("daphnes")
    with daphnes(2, os.environ["REDIS_URL"], prefix, **extra) as site:
        yield site


@pytest.fixture
def two_processes(transactional_db: None) -> Iterator[Site]:
    """Two Daphne processes on the site's own channel layer."""
    yield from shared_redis_site()


@pytest.fixture(params=LAYERS)
def two_processes_on_each_layer(
    transactional_db: None, request: pytest.FixtureRequest
) -> Iterator[Site]:
    """Two Daphne processes on each channel layer in turn."""
    yield from shared_redis_site(CHANNEL_LAYER=request.param)


def stored_version(game: Game) -> int:
    game.refresh_from_db()
    return game.version


async def test_a_move_posted_to_one_process_reaches_a_socket_on_the_other(
    running_game: Game, player: User, rival: User, two_processes_on_each_layer: Site
) -> None:
    first, second = two_processes_on_each_layer.urls
    watcher = Person(second, await database_sync_to_async(session_of)(player))
    mover = Person(first, await database_sync_to_async(session_of)(rival))
    try:
        version = await database_sync_to_async(stored_version)(running_game)
        mine = (await database_sync_to_async(batch_ids)(running_game, player))[0]
        board = await watcher.open_socket(running_game.pk)
        assert shown_version(board) == version
        assert mine in board  # the socket is the person's own: it shows their batch
        card = (await database_sync_to_async(batch_ids)(running_game, rival))[0]
        answer = await mover.keep(running_game, card, version)
        assert answer.status_code == 200, answer.text
        assert await database_sync_to_async(stored_version)(running_game) == version + 1
        pushed = await watcher.until_version(version + 1)
        assert f'data-base="{version}"' in pushed  # a regions-only piece from the shown board
        assert card not in pushed  # the rival's pick stays hidden
    finally:
        await watcher.close()
        await mover.close()


def keeps_now(game: Game) -> list[tuple[int, str, str]]:
    """Each person who may keep a pastry now, the first they may keep, and their moment (a
    Midnight Bakery pick chosen at the same moment stands when a rival's pick moved the table)."""
    game.refresh_from_db()
    kind = game.spec
    state = kind.engine.load(game.snapshot)
    keeps = []
    for seat in game.seats.exclude(user=None):
        legal = kind.engine.legal_actions(state, seat.position)
        if legal:
            moment = kind.moment(kind.engine.view(state, seat.position))
            keeps.append((seat.user_id, str(legal[0]["card"]), str(moment)))
    return keeps


def next_keep(game: Game, people: dict[int, Person]) -> tuple[int, str, int]:
    """Someone who may move now, the pastry they keep, and the version they saw."""
    for user_id, card, _ in keeps_now(game):
        if user_id in people:
            return user_id, card, game.version
    raise AssertionError("nobody can move")


def moves_stored(game: Game, people: list[int]) -> tuple[int, list[int], int]:
    """The table's version, every stored move's number, and how many were made by people."""
    game.refresh_from_db()
    seqs = list(game.actions.order_by("seq").values_list("seq", flat=True))
    return game.version, seqs, game.actions.filter(user__in=people).count()


class Night:
    """Two people at one table, each with a socket on another process, moving in turn."""

    def __init__(self, game: Game, people: dict[int, Person]) -> None:
        self.game = game
        self.people = people
        self.accepted = 0

    async def post(self) -> int:
        """One move by whoever may move, through their own process; the version it made."""
        user, card, version = await database_sync_to_async(next_keep)(self.game, self.people)
        answer = await self.people[user].keep(self.game, card, version)
        assert answer.status_code == 200, answer.text
        self.accepted += 1
        return version + 1

    async def move(self) -> None:
        """A move, then every socket holds its version (by a push, or by opening again)."""
        version = await self.post()
        for person in self.people.values():
            await person.until_version(version)


@pytest.fixture
def private_redis() -> Iterator[RedisServer]:
    """A redis-server of the test's own, on a free port: the shared one is never restarted."""
    server = redis_server_or_skip()
    yield server
    server.stop()


@pytest.mark.parametrize("layer", LAYERS)
@pytest.mark.parametrize("outage", ["long", "quick"])
async def test_redis_restarting_mid_game_loses_no_move_and_every_socket_heals(
    running_game: Game,
    player: User,
    rival: User,
    private_redis: RedisServer,
    transactional_db: None,
    outage: str,
    layer: str,
) -> None:
    """Redis is killed mid-game: after a long outage (a move made meanwhile), or restarted at once
    (the core layer's groups gone with it, the pub/sub layer's subscriptions broken). Each socket
    is closed to be opened again, or its pushes go on; no move is lost or stored twice."""
    with daphnes(2, private_redis.url, "restart", CHANNEL_LAYER=layer) as site:
        first, second = site.urls
        people = {
            player.pk: Person(second, await database_sync_to_async(session_of)(player)),
            rival.pk: Person(first, await database_sync_to_async(session_of)(rival)),
        }
        night = Night(running_game, people)
        start = await database_sync_to_async(stored_version)(running_game)
        try:
            for person in people.values():
                await person.open_socket(running_game.pk)
            for _ in range(3):
                await night.move()
            private_redis.stop(kill=True)
            if outage == "long":
                for person in people.values():
                    assert await person.closed() == LAYER_LOST
                await night.post()  # stored and answered while Redis is away
            private_redis.start()
            for _ in range(4):
                await night.move()
        finally:
            for person in people.values():
                await person.close()
    version, seqs, by_people = await database_sync_to_async(moves_stored)(
        running_game, list(people)
    )
    assert version == start + night.accepted
    assert by_people == night.accepted
    assert seqs == list(range(1, len(seqs) + 1))


CROWD = 150  # sockets opened on one process at once (100 busy tables have 200 a process)


async def test_a_crowd_of_sockets_joins_and_leaves_one_process_at_once(
    running_game: Game, player: User, rival: User, two_processes: Site
) -> None:
    """Hundreds of sockets open on one process at once (every handshake completes, none reset)
    and leave at once (a burst of group changes: no pool runs dry); the tables go on."""
    base = two_processes.urls[0]
    session = await database_sync_to_async(session_of)(player)
    version = await database_sync_to_async(stored_version)(running_game)
    # A session of its own each: one session holds a few sockets at a table (presence's caps).
    sessions = await database_sync_to_async(lambda: [session_of(player) for _ in range(CROWD)])()
    crowd = [Person(base, each) for each in sessions]
    for person in crowd:  # longer than the server's 30 s: a reset handshake is the server's
        person.open_timeout = 60.0
    boards = await asyncio.gather(*(p.open_socket(running_game.pk) for p in crowd))
    assert [shown_version(b) for b in boards] == [version] * CROWD
    await asyncio.gather(*(p.close() for p in crowd))
    watcher = Person(base, session)
    mover = Person(two_processes.urls[1], await database_sync_to_async(session_of)(rival))
    try:
        assert shown_version(await watcher.open_socket(running_game.pk)) == version
        card = (await database_sync_to_async(batch_ids)(running_game, rival))[0]
        assert (await mover.keep(running_game, card, version)).status_code == 200
        await watcher.until_version(version + 1)
    finally:
        await watcher.close()
        await mover.close()
    logs = "".join(log.read_text() for log in two_processes.folder.glob("daphne-*.log"))
    for trouble in ("Error", "Exception", "Traceback", "WSREJECT"):
        assert trouble not in logs, logs[-3000:]
