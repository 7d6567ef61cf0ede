"""Who sits with whom in a tournament, over plain data (no Django): Swiss rounds for tables of
several people, an arena's re-seating, points by place, the streak bonus and the standings'
order.

The rules, as the tournament page states them:
- Standings: 1) points, 2) Buchholz (the sum of the opponents' points), 3) wins (first places),
  4) rating at entry.
- Swiss: the people are cut into tables from the top of the standings (the leaders together),
  then neighbouring tables trade people to lower repeat meetings, nobody moving more than one
  table from their standing. Tables hold `seats` people where the count allows, else as few as
  `fewest`; who is left over gets a bye: the lowest-standing person among those with the fewest
  byes so far.
- Arena: the people free (their table ended, not paused) are seated as soon as `seats` are
  free, the longest waiting first, grouped by points and rating, trading places to avoid the
  people of their last table; once the longest waiting has waited `settle` seconds, `fewest` are
  enough.
- Blocks: a blocked pair never shares a table. If the tables cannot be seated so (everyone
  blocks everyone), the lower-standing person of a pair left together sits the round out: a
  bye in a Swiss (a house bot takes the seat), the next turn in an arena.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

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


# --- points -------------------------------------------------------------------------------

DEFAULT_POINTS: dict[int, tuple[float, ...]] = {2: (6, 0), 3: (6, 3, 0), 4: (6, 4, 2, 0)}
"""Points by place at a table of 2, 3 and 4; larger tables spread 6 to 0 evenly."""

TOP_POINTS = 6.0


def place_points(size: int, custom: Mapping[str, Sequence[float]] | None = None) -> list[float]:
    """The points of each place (1st first) at a table of `size`: the tournament's own list for
    that size if it has one, else the defaults (6/0, 6/3/0, 6/4/2/0, then 6 to 0 evenly)."""
    own = (custom or {}).get(str(size))
    if own is not None and len(own) == size:
        return [float(p) for p in own]
    if size in DEFAULT_POINTS:
        return [float(p) for p in DEFAULT_POINTS[size]]
    if size <= 1:
        return [TOP_POINTS] * size
    return [round(TOP_POINTS * (size - 1 - i) / (size - 1), 2) for i in range(size)]


def points_by_place(
    places: Sequence[int], custom: Mapping[str, Sequence[float]] | None = None
) -> list[float]:
    """Each seat's points from its place (1 is first) at one table: seats that share a place
    share its points and the next ones' (averaged: a tie for 1st at 6/4/2/0 gives 5 each)."""
    table = place_points(len(places), custom)
    points = []
    for place in places:
        shared = sum(1 for p in places if p == place)
        first = place - 1
        points.append(round(sum(table[first : first + shared]) / shared, 2))
    return points


def bye_points(seats: int, custom: Mapping[str, Sequence[float]] | None = None) -> float:
    """A Swiss bye's points: the median place's at a full table (3 at 6/4/2/0)."""
    return float(statistics.median(place_points(seats, custom)))


def streak_bonus(won: bool, wins_in_a_row: int, bonus: int) -> int:
    """The arena's bonus for a win that follows two or more wins in a row."""
    return bonus if won and wins_in_a_row >= 2 else 0


# --- standings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One entrant's figures going into a round."""

    entrant: int
    points: float = 0.0
    buchholz: float = 0.0
    wins: int = 0
    rating: int = 1500
    byes: int = 0


def standing_key(s: Standing) -> tuple[float, float, int, int, int]:
    """Sorts the leader first: points, Buchholz, wins, rating, then the earlier entrant."""
    return (-s.points, -s.buchholz, -s.wins, -s.rating, s.entrant)


def ranked(people: Iterable[Standing]) -> list[Standing]:
    """The entrants in standing order, the leader first."""
    return sorted(people, key=standing_key)


@dataclass(frozen=True)
class Played:
    """One recorded table (or bye) of an entrant: what it scored and whom it met."""

    points: float
    won: bool
    opponents: tuple[int, ...]
    bye: bool = False


@dataclass(frozen=True)
class Figures:
    """An entrant's standing figures, recomputed from every recorded table."""

    points: float
    buchholz: float
    wins: int
    games: int
    byes: int
    streak: int


def figures(history: Mapping[int, Sequence[Played]]) -> dict[int, Figures]:
    """Each entrant's figures from their tables in the order played: points, Buchholz (the sum
    of the points of everyone they met, once per meeting), wins, games, byes and the wins in a
    row they end on."""
    points = {e: round(sum(p.points for p in played), 2) for e, played in history.items()}
    result = {}
    for entrant, played in history.items():
        streak = 0
        for p in played:
            if not p.bye:
                streak = streak + 1 if p.won else 0
        met = [o for p in played for o in p.opponents]
        result[entrant] = Figures(
            points=points[entrant],
            buchholz=round(sum(points.get(o, 0.0) for o in met), 2),
            wins=sum(1 for p in played if p.won and not p.bye),
            games=sum(1 for p in played if not p.bye),
            byes=sum(1 for p in played if p.bye),
            streak=streak,
        )
    return result


# --- Swiss --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """A round's tables (entrant ids, each table in standing order, the top table first), how
    many house bots fill each table's empty seats, and who has a bye."""

    tables: tuple[tuple[int, ...], ...]
    bots: tuple[int, ...]
    byes: tuple[int, ...] = ()
    seated: frozenset[int] = field(default=frozenset())


def table_sizes(count: int, seats: int, fewest: int) -> tuple[list[int], int]:
    """How many sit at each table (the fullest first) and how many are left over for a bye:
    everyone sits if the count allows tables of `fewest` to `seats`, else full tables and the
    rest have byes."""
    if count < fewest:
        return [], count
    tables = -(-count // seats)
    if tables * fewest <= count:
        base, extra = divmod(count, tables)
        return [base + 1] * extra + [base] * (tables - extra), 0
    tables = count // seats
    return [seats] * tables, count - tables * seats


def swiss(
    people: Sequence[Standing],
    seats: int,
    fewest: int,
    met: Mapping[Pair, int],
    blocked: Collection[Pair] = (),
    bots_for_byes: bool = False,
) -> Seating:
    """One Swiss round. `met`: how often each pair sat together before; `blocked`: pairs that
    never share a table. With `bots_for_byes`, nobody has a bye: house bots fill the last table
    up to `fewest` instead."""
    order = ranked(people)
    sizes, left_over = table_sizes(len(order), seats, fewest)
    byes: list[int] = []
    if left_over and not bots_for_byes:
        byes = bye_takers(order, left_over)
    bots = [0] * len(sizes)
    if left_over and bots_for_byes:
        full, rest = divmod(len(order), seats)
        sizes = [seats] * full + ([rest] if rest else [])
        bots = [0] * full + ([max(0, fewest - rest)] if rest else [])
    resting = set(byes)
    playing = [s.entrant for s in order if s.entrant not in resting]
    tables = cut(playing, sizes)
    tables = improve(tables, met, blocked)
    if len(tables) <= EXACT_TABLES:
        tables = exact(playing, tables, met, blocked)
    if any(blocked_at(t, blocked) for t in tables):
        tables = apart(tables, blocked) or tables
        tables = improve(tables, met, blocked)
    rank = {s.entrant: i for i, s in enumerate(order)}
    tables, bots, sat_out = part_blocked(tables, bots, blocked, rank)
    byes += sat_out
    final = tuple(tuple(sorted(t, key=rank.__getitem__)) for t in tables)
    seated = frozenset(e for t in final for e in t)
    return Seating(final, tuple(bots), tuple(byes), seated)


def bye_takers(order: Sequence[Standing], count: int) -> list[int]:
    """Who has this round's byes: the lowest-standing among those with the fewest byes."""
    from_bottom = list(reversed(order))
    takers = sorted(from_bottom, key=lambda s: s.byes)[:count]
    return [s.entrant for s in takers]


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


EXACT_TABLES = 4
"""A field of this many tables or fewer is seated at the fewest repeats there are (within the
one-table rule) by an exhaustive search; a larger one by the neighbouring trades alone."""


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


# --- arena --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Free:
    """An arena entrant waiting for a table: their points and rating, since when they wait,
    and who sat at their last table."""

    entrant: int
    points: float = 0.0
    rating: int = 1500
    since: float = 0.0
    last: frozenset[int] = frozenset()


def arena(
    free: Sequence[Free],
    seats: int,
    fewest: int,
    now: float,
    settle: float,
    blocked: Collection[Pair] = (),
) -> list[tuple[int, ...]]:
    """The new tables among the people free now (each in points order); those not seated wait.

    Full tables of the longest waiting; what is left sits at a smaller table (of `fewest` or
    more) only once its longest waiting has waited `settle` seconds."""
    waiting = sorted(free, key=lambda f: (f.since, f.entrant))
    full = len(waiting) // seats
    chosen = waiting[: full * seats]
    rest = waiting[full * seats :]
    sizes = [seats] * full
    if len(rest) >= fewest and rest and now - rest[0].since >= settle:
        chosen += rest
        sizes.append(len(rest))
    if not sizes:
        return []
    by_id = {f.entrant: f for f in chosen}
    order = sorted(chosen, key=lambda f: (-f.points, -f.rating, f.entrant))
    met = {pair(f.entrant, o): 1 for f in chosen for o in f.last if o != f.entrant}
    tables = improve(cut([f.entrant for f in order], sizes), met, blocked)
    if any(blocked_at(t, blocked) for t in tables):
        tables = apart(tables, blocked) or tables
    rank = {f.entrant: i for i, f in enumerate(order)}
    tables, _, _ = part_blocked(tables, [0] * len(tables), blocked, rank)
    return [
        tuple(sorted(t, key=lambda e: (-by_id[e].points, -by_id[e].rating, e)))
        for t in tables
        if len(t) >= fewest
    ]
