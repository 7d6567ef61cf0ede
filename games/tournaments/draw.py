"""Who sits with whom in a tournament, over plain data (no Django): Swiss rounds for tables of
several people, and an arena's re-seating. Points by place, the streak bonus and the standings'
order are scoring.py; the search that keeps pairs apart (repeat meetings, blocks) is pairs.py.

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
  enough. A table that would seat someone again with only their last table-mates (a finished
  table's people are free together) takes someone else free in a trade, or waits for others to
  come free, but never past `mix` seconds of its longest waiting (ARENA_MIX_SECONDS).
- Blocks: a blocked pair never shares a table. If the tables cannot be seated so (everyone
  blocks everyone), the lower-standing person of a pair left together sits the round out: a
  bye in a Swiss (a house bot takes the seat), the next turn in an arena.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from games.tournaments.pairs import (
    Pair,
    apart,
    blocked_at,
    cut,
    exact,
    improve,
    pair,
    part_blocked,
)
from games.tournaments.scoring import Standing, ranked

# --- Swiss --------------------------------------------------------------------------------

EXACT_TABLES = 4
"""A field of this many tables or fewer is seated at the fewest repeats there are (within the
one-table rule) by an exhaustive search; a larger one by the neighbouring trades alone."""


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
    mix: float = 0.0,
) -> list[tuple[int, ...]]:
    """The new tables among the people free now (each in points order); those not seated wait.

    Full tables of the longest waiting; what is left sits at a smaller table (of `fewest` or
    more) only once its longest waiting has waited `settle` seconds. A table that would seat
    someone again with only people of their last table takes someone else free instead, or
    waits for others to come free, until its longest waiting has waited `mix` seconds (see
    mixed)."""
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
    order = sorted(chosen, key=lambda f: (-f.points, -f.rating, f.entrant))
    met = {pair(f.entrant, o): 1 for f in chosen for o in f.last if o != f.entrant}
    tables = improve(cut([f.entrant for f in order], sizes), met, blocked)
    if any(blocked_at(t, blocked) for t in tables):
        tables = apart(tables, blocked) or tables
    rank = {f.entrant: i for i, f in enumerate(order)}
    tables, _, _ = part_blocked(tables, [0] * len(tables), blocked, rank)
    by_id = {f.entrant: f for f in waiting}
    spare = waiting[len(chosen) :]
    tables = mixed(tables, spare, by_id, blocked, now - mix)
    return [
        tuple(sorted(t, key=lambda e: (-by_id[e].points, -by_id[e].rating, e)))
        for t in tables
        if len(t) >= fewest and not (again(t, by_id) and now - longest(t, by_id) < mix)
    ]


def again(table: Sequence[int], by_id: Mapping[int, Free]) -> bool:
    """Whether someone at this table would sit only with people of their last table."""
    return any(set(table) <= by_id[e].last | {e} for e in table if by_id[e].last)


def longest(table: Sequence[int], by_id: Mapping[int, Free]) -> float:
    """Since when the longest waiting at this table has waited."""
    return min(by_id[e].since for e in table)


def mixed(
    tables: list[list[int]],
    spare: Sequence[Free],
    everyone: Mapping[int, Free],
    blocked: Collection[Pair],
    after: float,
) -> list[list[int]]:
    """The tables, each one that would seat someone again with only their last table-mates
    trading one of its people for someone free and not seated (the longest waiting first)
    where that mixes it: a finished table's people, free together, need not sit down together
    again when someone else is free. Only people free since `after` (within the mix bound) may
    be traded out."""
    left = [f.entrant for f in sorted(spare, key=lambda f: (f.since, f.entrant))]
    return [traded(t, left, everyone, blocked, after) if again(t, everyone) else t for t in tables]


def traded(
    table: list[int],
    left: list[int],
    everyone: Mapping[int, Free],
    blocked: Collection[Pair],
    after: float,
) -> list[int]:
    """The table with its last-freed person (free since `after`) traded for one of those `left`
    (who then leaves them, the person traded joining them) so that it no longer seats anyone
    again with only their last table-mates, nor a blocked pair; as it is if no trade does."""
    for going in sorted(table, key=lambda e: (-everyone[e].since, e)):
        if everyone[going].since <= after:
            break
        for coming in left:
            trial = [coming if e == going else e for e in table]
            if not again(trial, everyone) and not blocked_at(trial, blocked):
                left[left.index(coming)] = going
                return trial
    return table
