"""The pairing pass's properties over many random pools (games/pairing/draw.py)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.pairing.draw import (
    SETTLE_SECONDS,
    WINDOW_EVERY,
    WINDOW_START,
    WINDOW_STEP,
    Group,
    Seeker,
    blocked_key,
    blocked_set,
    pair,
    window,
)

KINDS = {"midnight-bakery": (2, 8), "cakehalla": (2, 4)}
PACES = ("normal", "fast")
NOW = 40.0


def may_start(people: list[Seeker], now: float, blocked: frozenset[tuple[int, int]]) -> bool:
    """The rule, written out plainly: these people may sit down together at `now`."""
    if len({(s.kind, s.pace) for s in people}) != 1:
        return False
    for a, b in itertools.combinations(people, 2):
        if abs(a.rating - b.rating) > min(window(a, now), window(b, now)):
            return False
        if blocked_key(a.person, b.person) in blocked:
            return False
        if (a.bot and not (b.bot or b.bots_welcome)) or (b.bot and not (a.bot or a.bots_welcome)):
            return False  # a bot account sits only with bots and the people who welcome them
    fewest = max(s.fewest for s in people)
    most = min(s.most for s in people)
    if not len(people) <= most or fewest > most:
        return False
    oldest = min(people, key=lambda s: (s.since, s.person))
    settled = now - oldest.since >= SETTLE_SECONDS and len(people) >= fewest
    bots = all(s.bots_after is not None and now - s.since >= s.bots_after for s in people)
    return len(people) == most or settled or bots


def startable_groups(
    seekers: list[Seeker], now: float, blocked: frozenset[tuple[int, int]]
) -> Iterator[tuple[Seeker, ...]]:
    """Every group of these seekers that may start (brute force: small pools only)."""
    for size in range(1, 9):
        for combo in itertools.combinations(seekers, size):
            if may_start(list(combo), now, blocked):
                yield combo


def random_pool(rng: random.Random, size: int) -> tuple[list[Seeker], frozenset[tuple[int, int]]]:
    """A random pool: mixed games, paces, counts, ratings, waits, bots, bot accounts, people who
    welcome them and blocks."""
    seekers = []
    for person in range(1, size + 1):
        kind = rng.choice(list(KINDS))
        low, high = KINDS[kind]
        fewest = rng.randint(low, high)
        most = rng.choice([fewest, high, rng.randint(fewest, high)])
        seekers.append(
            Seeker(
                person=person,
                kind=kind,
                pace=rng.choice(PACES),
                fewest=fewest,
                most=most,
                rating=rng.randint(1300, 1700),
                since=float(rng.randint(0, int(NOW))),
                bots_after=rng.choice([None, None, 10.0, 30.0]),
                bot=rng.random() < 0.2,
                bots_welcome=rng.random() < 0.5,
            )
        )
    people = [s.person for s in seekers]
    pairs = [tuple(rng.sample(people, 2)) for _ in range(rng.randint(0, size // 2))]
    return seekers, blocked_set(pairs)  # type: ignore[arg-type]


def check_groups(
    seekers: list[Seeker], groups: list[Group], blocked: frozenset[tuple[int, int]]
) -> None:
    """Nobody twice; every group may start, with the bots it needs to reach everyone's fewest."""
    by_person = {s.person: s for s in seekers}
    placed = [p for g in groups for p in g.people]
    assert len(placed) == len(set(placed)), groups
    for group in groups:
        people = [by_person[p] for p in group.people]
        assert all((s.kind, s.pace) == (group.kind, group.pace) for s in people)
        assert may_start(people, NOW, blocked), group
        fewest = max(s.fewest for s in people)
        most = min(s.most for s in people)
        assert group.bots == max(0, fewest - len(people))
        assert fewest <= len(people) + group.bots <= most


SEEDS = range(400)


@pytest.mark.parametrize("seed", SEEDS[:200])
def test_every_group_may_start_and_nobody_sits_twice(seed: int) -> None:
    rng = random.Random(seed)
    seekers, blocked = random_pool(rng, rng.randint(2, 40))
    check_groups(seekers, pair(seekers, NOW, blocked), blocked)


@pytest.mark.parametrize("seed", SEEDS)
def test_nobody_left_waiting_could_have_started(seed: int) -> None:
    """No group that may start is left among those the pass did not seat."""
    rng = random.Random(seed)
    seekers, blocked = random_pool(rng, rng.randint(2, 11))
    groups = pair(seekers, NOW, blocked)
    check_groups(seekers, groups, blocked)
    seated = {p for g in groups for p in g.people}
    left = [s for s in seekers if s.person not in seated]
    assert not any(True for _ in startable_groups(left, NOW, blocked)), (groups, left)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_oldest_seeker_is_never_passed_over(seed: int) -> None:
    """If any group with the oldest seeker may start, the oldest sits down in this pass."""
    rng = random.Random(seed)
    seekers, blocked = random_pool(rng, rng.randint(2, 11))
    oldest = min(seekers, key=lambda s: (s.since, s.person))
    could = any(oldest in g for g in startable_groups(seekers, NOW, blocked))
    seated = {p for g in pair(seekers, NOW, blocked) for p in g.people}
    assert (oldest.person in seated) == could


@pytest.mark.parametrize("seed", SEEDS[:100])
def test_equal_input_gives_equal_groups_in_any_order(seed: int) -> None:
    rng = random.Random(seed)
    seekers, blocked = random_pool(rng, 30)
    shuffled = list(seekers)
    rng.shuffle(shuffled)
    assert pair(shuffled, NOW, blocked) == pair(seekers, NOW, blocked)


def seeker(person: int, rating: int, since: float = 0.0, **kw: object) -> Seeker:
    fields: dict[str, Any] = {"kind": "cakehalla", "pace": "fast", "fewest": 2, "most": 2, **kw}
    return Seeker(person=person, rating=rating, since=since, **fields)


def test_the_window_widens_with_the_wait() -> None:
    someone = seeker(1, 1500)
    assert window(someone, 0.0) == WINDOW_START
    assert window(someone, WINDOW_EVERY - 0.1) == WINDOW_START
    assert window(someone, 3 * WINDOW_EVERY) == WINDOW_START + 3 * WINDOW_STEP


def test_people_too_far_apart_at_first_are_paired_once_their_windows_widened() -> None:
    apart = [seeker(1, 1500), seeker(2, 1800)]
    assert pair(apart, 0.0, frozenset()) == []
    assert pair(apart, 3 * WINDOW_EVERY, frozenset()) == []  # windows of 250: 300 apart
    waited = 4 * WINDOW_EVERY  # both windows now 100 + 4 * 50 = 300
    assert pair(apart, waited, frozenset()) == [Group("cakehalla", "fast", (1, 2))]


def test_a_block_either_way_keeps_two_apart() -> None:
    two = [seeker(1, 1500), seeker(2, 1500)]
    assert pair(two, 0.0, blocked_set([(2, 1)])) == []
    assert pair(two, 0.0, blocked_set([(1, 2)])) == []
    assert pair(two, 0.0, blocked_set([(1, 3)])) == [Group("cakehalla", "fast", (1, 2))]


def test_a_table_not_yet_full_waits_until_its_oldest_settled() -> None:
    two = [seeker(1, 1500, most=4), seeker(2, 1500, since=1.0, most=4)]
    assert pair(two, SETTLE_SECONDS - 0.5, frozenset()) == []
    assert pair(two, SETTLE_SECONDS, frozenset()) == [Group("cakehalla", "fast", (1, 2))]


def test_a_full_table_starts_at_once() -> None:
    four = [seeker(p, 1500, since=float(p), fewest=3, most=4) for p in range(1, 5)]
    assert pair(four, 4.0, frozenset()) == [Group("cakehalla", "fast", (1, 2, 3, 4))]


def test_bots_fill_a_table_only_for_people_who_asked_and_waited() -> None:
    alone = [seeker(1, 1500, fewest=3, most=4, bots_after=10.0)]
    assert pair(alone, 9.0, frozenset()) == []
    assert pair(alone, 10.0, frozenset()) == [Group("cakehalla", "fast", (1,), bots=2)]
    mixed = [*alone, seeker(2, 1500, since=1.0, fewest=3, most=4)]
    assert pair(mixed, 10.0, frozenset()) == [Group("cakehalla", "fast", (1,), bots=2)]


def test_a_bot_account_sits_only_with_bot_accounts_and_people_who_welcome_them() -> None:
    robo, person = seeker(1, 1500, bot=True), seeker(2, 1500, since=1.0)
    assert pair([robo, person], 60.0, frozenset()) == []
    welcoming = seeker(3, 1500, since=2.0, bots_welcome=True)
    assert pair([robo, person, welcoming], 60.0, frozenset()) == [
        Group("cakehalla", "fast", (1, 3))
    ]
    droid = seeker(4, 1500, since=3.0, bot=True)
    assert pair([robo, person, droid], 60.0, frozenset()) == [Group("cakehalla", "fast", (1, 4))]
    table = [seeker(p, 1500, since=float(p), most=3, bots_welcome=p != 2) for p in (2, 3)]
    three = pair([robo, *table], 60.0, frozenset())  # the one who does not welcome bots is left
    assert three == [Group("cakehalla", "fast", (1, 3))]


def test_only_one_game_and_pace_sit_together() -> None:
    people = [seeker(1, 1500), seeker(2, 1500, pace="normal"), seeker(3, 1500, kind="mb")]
    assert pair(people, 60.0, frozenset()) == []
