"""Pairs of entrants, and the search over tables that keeps pairs apart (no Django): those who
met before sit together as rarely as can be, those who block each other never (or, as a last
resort, the lower-standing one sits out). Swiss rounds and an arena's seating both use it
(draw.py)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Mapping, Sequence

Pair = tuple[int, int]
"""Two entrants, the smaller id first."""

BLOCKED_COST = 10_000
"""A blocked pair at a table costs more than any number of repeat meetings."""

SEARCH_BUDGET = 200_000
"""Steps the search for a seating without blocked pairs may take before it gives up."""


def pair(a: int, b: int) -> Pair:
    """The key of two entrants, whichever comes first."""
    return (a, b) if a < b else (b, a)


def pairs_of(people: Iterable[int]) -> list[Pair]:
    """Every pair among these people."""
    return [pair(a, b) for a, b in itertools.combinations(people, 2)]


def cut(people: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """The people in order, cut into tables of these sizes from the top."""
    tables, at = [], 0
    for size in sizes:
        tables.append(list(people[at : at + size]))
        at += size
    return tables


def blocked_at(table: Iterable[int], blocked: Collection[Pair]) -> int:
    """How many blocked pairs sit at this table."""
    return sum(1 for p in pairs_of(table) if p in blocked) if blocked else 0


def table_cost(table: Sequence[int], met: Mapping[Pair, int], blocked: Collection[Pair]) -> int:
    """Repeat meetings at a table (each earlier meeting of each pair), a blocked pair far more."""
    cost = 0
    for p in pairs_of(table):
        cost += met.get(p, 0)
        if p in blocked:
            cost += BLOCKED_COST
    return cost


def improve(
    tables: list[list[int]], met: Mapping[Pair, int], blocked: Collection[Pair]
) -> list[list[int]]:
    """Neighbouring tables trade people while it lowers their cost, nobody moving more than one
    table from where the cut put them (their standing)."""
    home = {e: i for i, t in enumerate(tables) for e in t}
    tables = [list(t) for t in tables]
    costs = [table_cost(t, met, blocked) for t in tables]
    dirty = set(range(len(tables) - 1))
    while dirty:
        i = min(dirty)
        dirty.discard(i)
        if costs[i] == 0 and costs[i + 1] == 0:
            continue
        better = best_split(tables[i], tables[i + 1], i, home, met, blocked)
        if better is None:
            continue
        tables[i], tables[i + 1] = better
        costs[i] = table_cost(tables[i], met, blocked)
        costs[i + 1] = table_cost(tables[i + 1], met, blocked)
        dirty.update(j for j in (i - 1, i + 1) if 0 <= j < len(tables) - 1)
    return tables


FULL_SPLITS = 70
"""At most this many ways to share two tables' people are all tried; past it, single swaps."""


def best_split(
    upper: list[int],
    lower: list[int],
    i: int,
    home: Mapping[int, int],
    met: Mapping[Pair, int],
    blocked: Collection[Pair],
) -> tuple[list[int], list[int]] | None:
    """The cheapest way to share the people of tables i and i+1 (same sizes, nobody more than
    one table from home), fewest people moved on a tie; None if none beats the present one."""
    both = upper + lower
    n = len(both)
    weight = [[0] * n for _ in range(n)]
    for a, b in itertools.combinations(range(n), 2):
        p = pair(both[a], both[b])
        weight[a][b] = weight[b][a] = met.get(p, 0) + (BLOCKED_COST if p in blocked else 0)
    may_go_up = [home[e] - i <= 1 and home[e] >= i - 1 for e in both]
    may_go_down = [abs(home[e] - i - 1) <= 1 for e in both]
    away_up = [home[e] != i for e in both]
    away_down = [home[e] != i + 1 for e in both]

    def cost(seat: Sequence[int]) -> int:
        return sum(weight[a][b] for a, b in itertools.combinations(seat, 2))

    def key(top: Sequence[int], bottom: Sequence[int]) -> tuple[int, int]:
        moved = sum(away_up[a] for a in top) + sum(away_down[b] for b in bottom)
        return cost(top) + cost(bottom), moved

    now = key(range(len(upper)), range(len(upper), n))
    best, found = now, None
    for top, bottom in splits(n, len(upper)):
        if not all(may_go_up[a] for a in top) or not all(may_go_down[b] for b in bottom):
            continue
        k = key(top, bottom)
        if k < best:
            best, found = k, (top, bottom)
    if found is None or best[0] >= now[0]:
        return None
    return [both[a] for a in found[0]], [both[b] for b in found[1]]


def splits(n: int, high: int) -> Iterable[tuple[Sequence[int], Sequence[int]]]:
    """Ways to share two tables' seats 0..n-1 (the upper table's `high` first): every way when
    few, else every single swap."""
    if math.comb(n, high) <= FULL_SPLITS:
        for top in itertools.combinations(range(n), high):
            chosen = set(top)
            yield top, [e for e in range(n) if e not in chosen]
        return
    for a in range(high):
        for b in range(high, n):
            yield (
                [b if x == a else x for x in range(high)],
                [a if x == b else x for x in range(high, n)],
            )


def exact(
    order: Sequence[int],
    tables: list[list[int]],
    met: Mapping[Pair, int],
    blocked: Collection[Pair],
) -> list[list[int]]:
    """The cheapest seating of these tables' sizes in which nobody sits more than one table
    from where the straight cut of `order` puts them, by a bounded search that must beat the
    trades' seating (`tables`, kept if the search finds nothing cheaper within its budget)."""
    best_cost = sum(table_cost(t, met, blocked) for t in tables)
    if best_cost == 0:
        return tables
    sizes = [len(t) for t in tables]
    people = list(order)
    home = home_of(cut(people, sizes))
    seated: list[list[int]] = [[] for _ in tables]
    best = [list(t) for t in tables]
    steps = 0

    def place(n: int, cost: int) -> None:
        nonlocal best_cost, best, steps
        if cost >= best_cost or steps > SEARCH_BUDGET:
            return
        if n == len(people):
            best_cost, best = cost, [list(t) for t in seated]
            return
        e = people[n]
        for i in (home[e], home[e] - 1, home[e] + 1):
            if 0 <= i < len(sizes) and len(seated[i]) < sizes[i]:
                steps += 1
                extra = sum(
                    met.get(pair(e, o), 0) + (BLOCKED_COST if pair(e, o) in blocked else 0)
                    for o in seated[i]
                )
                seated[i].append(e)
                place(n + 1, cost + extra)
                seated[i].pop()

    place(0, 0)
    return best


def home_of(tables: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each person's table index."""
    return {e: i for i, t in enumerate(tables) for e in t}


def apart(tables: list[list[int]], blocked: Collection[Pair]) -> list[list[int]] | None:
    """A seating of the same table sizes where no blocked pair shares a table, each person as
    near their table as can be (people in order, nearest table first); None if the search
    finds none within its budget."""
    people = [e for t in tables for e in t]
    home = {e: i for i, t in enumerate(tables) for e in t}
    room = [len(t) for t in tables]
    foes: dict[int, set[int]] = {e: set() for e in people}
    for a, b in blocked:
        if a in foes and b in foes:
            foes[a].add(b)
            foes[b].add(a)
    # The most blocked first: they have the fewest tables left to them.
    people.sort(key=lambda e: (-len(foes[e]), home[e]))
    seated: list[list[int]] = [[] for _ in tables]
    steps = 0

    def place(n: int) -> bool:
        nonlocal steps
        if n == len(people):
            return True
        e = people[n]
        for t in sorted(range(len(tables)), key=lambda t: (abs(t - home[e]), t)):
            steps += 1
            if steps > SEARCH_BUDGET:
                return False
            if len(seated[t]) < room[t] and not foes[e] & set(seated[t]):
                seated[t].append(e)
                if place(n + 1):
                    return True
                seated[t].pop()
        return False

    return seated if place(0) else None


def part_blocked(
    tables: list[list[int]], bots: list[int], blocked: Collection[Pair], rank: Mapping[int, int]
) -> tuple[list[list[int]], list[int], list[int]]:
    """The last resort: while a blocked pair shares a table, its lower-standing person sits out
    (a house bot takes the seat); the tables, their bots, and who sat out."""
    out: list[int] = []
    tables = [list(t) for t in tables]
    bots = list(bots)
    for i, table in enumerate(tables):
        while True:
            together = [p for p in pairs_of(table) if p in blocked]
            if not together:
                break
            a, b = together[0]
            lower = a if rank[a] > rank[b] else b
            table.remove(lower)
            bots[i] += 1
            out.append(lower)
    return tables, bots, out
