"""The draw's properties over many seeded random fields (games/tournaments/draw.py, its search
pairs.py, and scoring.py): nobody sits twice, the leaders sit together, repeats are avoided as
well as a brute force finds, byes are spread, blocked pairs never share a table; points by place
and the standings' figures."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from games.tournaments import draw, pairs, scoring

FIELDS = 300


def field(rng: random.Random, count: int) -> list[scoring.Standing]:
    """Entrants with random figures (points in the steps tables give)."""
    return [
        scoring.Standing(
            entrant=i + 1,
            points=rng.choice([0, 2, 3, 4, 6, 8, 9, 10, 12]),
            buchholz=rng.randrange(40),
            wins=rng.randrange(3),
            rating=1400 + rng.randrange(300),
            byes=rng.randrange(2),
        )
        for i in range(count)
    ]


def history(rng: random.Random, people: list[int], rounds: int, seats: int) -> dict:
    """Random earlier tables among these people: how often each pair met."""
    met: Counter[pairs.Pair] = Counter()
    for _ in range(rounds):
        shuffled = rng.sample(people, len(people))
        for at in range(0, len(shuffled), seats):
            met.update(pairs.pairs_of(shuffled[at : at + seats]))
    return dict(met)


def some_blocks(rng: random.Random, people: list[int], count: int) -> set[pairs.Pair]:
    """Random blocked pairs among these people."""
    return {pairs.pair(*rng.sample(people, 2)) for _ in range(count)}


def repeat_cost(tables, met) -> int:
    return sum(met.get(p, 0) for t in tables for p in pairs.pairs_of(t))


# --- Swiss ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seats,fewest", [(4, 4), (4, 3), (3, 3), (3, 2), (5, 4)])
def test_nobody_sits_twice_and_everyone_sits_or_has_a_bye(seats: int, fewest: int) -> None:
    rng = random.Random(seats * 10 + fewest)
    for _ in range(FIELDS):
        people = field(rng, rng.randrange(1, 40))
        ids = [p.entrant for p in people]
        seating = draw.swiss(people, seats, fewest, history(rng, ids, 2, seats))
        sat = [e for t in seating.tables for e in t] + list(seating.byes)
        assert sorted(sat) == sorted(ids)  # each once, nobody lost
        for table, bots in zip(seating.tables, seating.bots, strict=True):
            assert fewest <= len(table) + bots <= seats


def test_the_count_decides_the_tables_and_the_byes() -> None:
    assert draw.table_sizes(9, 3, 3) == ([3, 3, 3], 0)
    assert draw.table_sizes(9, 4, 4) == ([4, 4], 1)
    assert draw.table_sizes(10, 4, 3) == ([4, 3, 3], 0)
    assert draw.table_sizes(5, 4, 3) == ([4], 1)
    assert draw.table_sizes(2, 4, 3) == ([], 2)


def test_the_leaders_sit_together_with_no_history() -> None:
    rng = random.Random(7)
    for _ in range(FIELDS):
        people = field(rng, rng.randrange(4, 60))
        seating = draw.swiss(people, 4, 3, {})
        order = [s.entrant for s in scoring.ranked(people) if s.entrant not in seating.byes]
        assert [e for t in seating.tables for e in t] == order  # cut straight from the top


def test_nobody_moves_more_than_one_table_from_their_standing() -> None:
    rng = random.Random(8)
    for _ in range(FIELDS):
        people = field(rng, rng.randrange(6, 50))
        ids = [p.entrant for p in people]
        seating = draw.swiss(people, 4, 3, history(rng, ids, 3, 4))
        order = [s.entrant for s in scoring.ranked(people) if s.entrant not in seating.byes]
        sizes = [len(t) for t in seating.tables]
        home = {e: i for i, t in enumerate(pairs.cut(order, sizes)) for e in t}
        for i, table in enumerate(seating.tables):
            assert all(abs(home[e] - i) <= 1 for e in table)


def best_repeats(order: list[int], sizes: list[int], met: dict) -> int:
    """The fewest repeat meetings of any seating with these table sizes where nobody sits more
    than one table from where the straight cut puts them (brute force)."""
    home = {e: i for i, t in enumerate(pairs.cut(order, sizes)) for e in t}
    best = None

    def fill(left: list[int], tables: list[list[int]]) -> None:
        nonlocal best
        if not left:
            cost = repeat_cost(tables, met)
            best = cost if best is None else min(best, cost)
            return
        e = left[0]
        for i, t in enumerate(tables):
            if len(t) < sizes[i] and abs(home[e] - i) <= 1:
                t.append(e)
                fill(left[1:], tables)
                t.pop()

    fill(order, [[] for _ in sizes])
    assert best is not None
    return best


def test_repeats_are_as_few_as_a_brute_force_finds_on_two_tables() -> None:
    rng = random.Random(9)
    for _ in range(FIELDS):
        people = field(rng, 8)
        ids = [p.entrant for p in people]
        met = history(rng, ids, rng.randrange(1, 4), 4)
        seating = draw.swiss(people, 4, 4, met)
        order = [s.entrant for s in scoring.ranked(people)]
        assert repeat_cost(seating.tables, met) == best_repeats(order, [4, 4], met)


def test_repeats_are_as_few_as_a_brute_force_finds_on_up_to_four_tables() -> None:
    rng = random.Random(10)
    avoidable = 0
    for _ in range(FIELDS):
        people = field(rng, rng.choice([9, 12]))
        ids = [p.entrant for p in people]
        met = history(rng, ids, rng.randrange(1, 3), 3)
        seating = draw.swiss(people, 3, 3, met)
        order = [s.entrant for s in scoring.ranked(people)]
        best = best_repeats(order, [3] * (len(ids) // 3), met)
        assert repeat_cost(seating.tables, met) == best
        avoidable += best == 0 < repeat_cost(pairs.cut(order, [3] * (len(ids) // 3)), met)
    assert avoidable > 20  # fields where the straight cut repeats and a seating avoids it


def test_byes_go_to_the_lowest_standing_with_the_fewest_byes() -> None:
    people = [
        scoring.Standing(1, points=12),
        scoring.Standing(2, points=9),
        scoring.Standing(3, points=6),
        scoring.Standing(4, points=3, byes=1),
        scoring.Standing(5, points=0, byes=1),
    ]
    seating = draw.swiss(people, 4, 4, {})
    assert seating.byes == (3,)  # 4 and 5 had theirs


def test_byes_are_spread_over_a_whole_event() -> None:
    rng = random.Random(11)
    for count in (5, 9, 13, 14, 7):
        people = {i: scoring.Standing(i, rating=1500 + i) for i in range(1, count + 1)}
        rounds = count  # long enough for everyone to have a bye or more
        for _ in range(rounds):
            seating = draw.swiss(list(people.values()), 4, 4, {})
            for e in seating.byes:
                people[e] = scoring.Standing(
                    e, people[e].points, rating=people[e].rating, byes=people[e].byes + 1
                )
            for table in seating.tables:
                for place, e in enumerate(rng.sample(table, len(table))):
                    s = people[e]
                    people[e] = scoring.Standing(
                        e, s.points + 3 - place, rating=s.rating, byes=s.byes
                    )
        byes = [s.byes for s in people.values()]
        assert max(byes) - min(byes) <= 1


def test_bots_fill_the_last_table_when_byes_are_bots() -> None:
    people = field(random.Random(1), 9)
    seating = draw.swiss(people, 4, 4, {}, bots_for_byes=True)
    assert [len(t) for t in seating.tables] == [4, 4, 1]
    assert seating.bots == (0, 0, 3) and seating.byes == ()


def seatable_apart(ids: list[int], sizes: list[int], blocked: set[pairs.Pair]) -> bool:
    """Whether any seating with these table sizes keeps every blocked pair apart (brute force)."""

    def fill(left: list[int], tables: list[list[int]]) -> bool:
        if not left:
            return True
        e = left[0]
        for i, t in enumerate(tables):
            if len(t) < sizes[i] and not any(pairs.pair(e, o) in blocked for o in t):
                t.append(e)
                if fill(left[1:], tables):
                    return True
                t.pop()
        return False

    return fill(ids, [[] for _ in sizes])


def test_a_blocked_pair_never_shares_a_table_when_any_seating_keeps_them_apart() -> None:
    rng = random.Random(12)
    tried = 0
    for _ in range(FIELDS):
        people = field(rng, rng.randrange(6, 13))
        ids = [p.entrant for p in people]
        blocked = some_blocks(rng, ids, rng.randrange(1, 12))
        seating = draw.swiss(people, 3, 3, {}, blocked)
        sizes = [len(t) + b for t, b in zip(seating.tables, seating.bots, strict=True)]
        rest = [e for e in ids if e not in draw.bye_takers(scoring.ranked(people), 0)]
        for table in seating.tables:
            assert pairs.blocked_at(table, blocked) == 0  # never, whatever happens
        if seatable_apart(rest[: sum(sizes)], sizes, blocked) and not seating.byes:
            tried += 1
        if not seating.byes or draw.table_sizes(len(ids), 3, 3)[1]:
            continue
        # Someone sat out for a block: no seating of the whole field could keep them apart.
        sizes, _ = draw.table_sizes(len(ids), 3, 3)
        assert not seatable_apart(ids, sizes, blocked)
    assert tried > 50


def test_when_everyone_blocks_everyone_the_lower_standing_sit_out_for_bots() -> None:
    people = [scoring.Standing(i, points=10 - i) for i in range(1, 5)]
    blocked = set(pairs.pairs_of(range(1, 5)))
    seating = draw.swiss(people, 4, 4, {}, blocked)
    assert seating.tables == ((1,),) and seating.bots == (3,)
    assert sorted(seating.byes) == [2, 3, 4]


def test_a_big_round_keeps_blocked_pairs_apart() -> None:
    rng = random.Random(13)
    people = field(rng, 400)
    ids = [p.entrant for p in people]
    blocked = some_blocks(rng, ids, 300)
    seating = draw.swiss(people, 4, 3, history(rng, ids, 4, 4), blocked)
    assert not seating.byes
    assert all(pairs.blocked_at(t, blocked) == 0 for t in seating.tables)


# --- arena ----------------------------------------------------------------------------------


def free_people(rng: random.Random, count: int, now: float) -> list[draw.Free]:
    ids = list(range(1, count + 1))
    return [
        draw.Free(
            i,
            rng.randrange(30),
            1400 + rng.randrange(300),
            now - rng.randrange(60),
            frozenset(rng.sample(ids, min(3, count))) - {i},
        )
        for i in ids
    ]


def test_the_arena_seats_full_tables_of_the_longest_waiting_and_nobody_twice() -> None:
    rng = random.Random(14)
    for _ in range(FIELDS):
        free = free_people(rng, rng.randrange(0, 30), 1000.0)
        tables = draw.arena(free, 4, 3, 1000.0, settle=10_000)
        seated = [e for t in tables for e in t]
        assert len(seated) == len(set(seated)) == 4 * (len(free) // 4)
        assert all(len(t) == 4 for t in tables)
        longest = sorted(free, key=lambda f: (f.since, f.entrant))[: len(seated)]
        assert set(seated) == {f.entrant for f in longest}


def test_the_arena_seats_a_smaller_table_once_someone_waited_long_enough() -> None:
    free = [draw.Free(1, since=0.0), draw.Free(2, since=5.0), draw.Free(3, since=5.0)]
    assert draw.arena(free, 4, 3, now=10.0, settle=20.0) == []
    assert [sorted(t) for t in draw.arena(free, 4, 3, now=20.0, settle=20.0)] == [[1, 2, 3]]
    assert draw.arena(free[:2], 4, 3, now=99.0, settle=20.0) == []  # fewer than the fewest


def test_the_arena_avoids_the_people_of_the_last_table_when_it_can() -> None:
    last = frozenset({1, 2, 3, 4})
    free = [draw.Free(i, points=10 - i, last=last - {i}) for i in (1, 2, 3, 4)]
    free += [draw.Free(i, points=10 - i, last=frozenset({5, 6, 7, 8}) - {i}) for i in (5, 6, 7, 8)]
    tables = draw.arena(free, 4, 4, now=0.0, settle=20.0)
    cost = sum(1 for t in tables for a, b in itertools.combinations(t, 2) if (a <= 4) == (b <= 4))
    assert cost == 4  # two of each last table meet again, never all four


def test_the_arena_never_seats_a_blocked_pair_together() -> None:
    rng = random.Random(15)
    for _ in range(FIELDS):
        free = free_people(rng, rng.randrange(4, 24), 0.0)
        ids = [f.entrant for f in free]
        blocked = some_blocks(rng, ids, rng.randrange(1, 10))
        tables = draw.arena(free, 4, 3, 0.0, 20.0, blocked)
        assert all(pairs.blocked_at(t, blocked) == 0 for t in tables)
        seated = [e for t in tables for e in t]
        assert len(seated) == len(set(seated))


# --- points and figures ---------------------------------------------------------------------


def test_points_by_place_defaults_and_larger_tables_spread_evenly() -> None:
    assert scoring.place_points(2) == [6, 0]
    assert scoring.place_points(3) == [6, 3, 0]
    assert scoring.place_points(4) == [6, 4, 2, 0]
    assert scoring.place_points(5) == [6, 4.5, 3, 1.5, 0]
    assert scoring.place_points(7) == [6, 5, 4, 3, 2, 1, 0]
    assert scoring.place_points(4, {"4": [10, 5, 1, 0]}) == [10, 5, 1, 0]
    assert scoring.place_points(3, {"4": [10, 5, 1, 0]}) == [6, 3, 0]


def test_a_shared_place_shares_its_points() -> None:
    assert scoring.points_by_place([1, 1, 3, 4]) == [5, 5, 2, 0]
    assert scoring.points_by_place([1, 2, 2, 2]) == [6, 2, 2, 2]
    assert scoring.points_by_place([2, 1, 3]) == [3, 6, 0]


def test_a_bye_is_worth_the_median_place() -> None:
    assert scoring.bye_points(4) == 3
    assert scoring.bye_points(3) == 3
    assert scoring.bye_points(5) == 3


def test_the_streak_bonus_needs_two_wins_in_a_row_before() -> None:
    assert scoring.streak_bonus(True, 2, 2) == 2
    assert scoring.streak_bonus(True, 1, 2) == 0
    assert scoring.streak_bonus(False, 5, 2) == 0


def test_figures_count_points_buchholz_wins_and_the_streak() -> None:
    played = {
        1: [scoring.Played(6, True, (2, 3)), scoring.Played(6, True, (2,))],
        2: [scoring.Played(3, False, (1, 3)), scoring.Played(0, False, (1,))],
        3: [scoring.Played(0, False, (1, 2)), scoring.Played(3, False, (), bye=True)],
    }
    got = scoring.figures(played)
    assert got[1] == scoring.Figures(12, 3 + 3 + 3, 2, 2, 0, 2)
    assert got[2].buchholz == 12 + 3 + 12
    assert got[3] == scoring.Figures(3, 15, 0, 1, 1, 0)


def test_standings_order_by_points_buchholz_wins_then_rating() -> None:
    a = scoring.Standing(1, points=6, buchholz=10, wins=1, rating=1500)
    b = scoring.Standing(2, points=6, buchholz=12, wins=0, rating=1400)
    c = scoring.Standing(3, points=6, buchholz=12, wins=1, rating=1300)
    d = scoring.Standing(4, points=6, buchholz=12, wins=1, rating=1600)
    e = scoring.Standing(5, points=7)
    assert [s.entrant for s in scoring.ranked([a, b, c, d, e])] == [5, 4, 3, 2, 1]


def test_the_arena_trades_someone_else_free_into_a_table_that_would_sit_again() -> None:
    last = frozenset({1, 2, 3})
    free = [draw.Free(i, since=0.0, last=last) for i in (1, 2, 3)] + [draw.Free(4, since=1.0)]
    (table,) = draw.arena(free, 3, 3, now=2.0, settle=20.0, mix=30.0)
    assert 4 in table and len(set(table) & last) == 2


def test_the_arena_holds_a_table_of_last_table_mates_until_the_mix_bound() -> None:
    last = frozenset({1, 2, 3})
    free = [draw.Free(i, since=0.0, last=last) for i in (1, 2, 3)]
    assert draw.arena(free, 3, 3, now=29.0, settle=20.0, mix=30.0) == []
    assert [sorted(t) for t in draw.arena(free, 3, 3, now=30.0, settle=20.0, mix=30.0)] == [
        [1, 2, 3]
    ]
