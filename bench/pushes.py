"""CPU per move of a table's pushes, with renders shared between viewers and without.

In-process, on a throwaway database (bench/_site_setup.py): a four-seat table of people, each
seat's socket (and `BENCH_PUSHES_SPECTATORS` spectators, 1) pushed after every move exactly as
the consumer does (the table read once per version, then each viewer's changed regions). The
same seeded game is played three ways, in turn, `BENCH_PUSHES_RUNS` (3) times each: nothing
shared (games.boards keeps no render: renders.RENDERS_KEEP = pieces.PIECES_KEEP = 0), whole regions
shared, and regions and their {{ piece(...) }} pieces shared. It prints the median CPU
seconds (time.process_time: other processes on a busy machine do not count) per move of all
pushes, and the regions and pieces rendered and shared per move. Nothing is asserted.

`BENCH_PUSHES_LANGUAGES` (en): the languages the viewers read, dealt round them in turn (en,fr,de:
a table of mixed languages); each viewer's pushes are rendered in its own, as its socket's are
(games/live/push_threads.py), and renders are shared only within one language.
`BENCH_PUSHES_GAMES` (both) picks the kinds, `BENCH_PUSHES_MODES=pieces` only the site's way
(regions and pieces shared: for pairs of trees), `BENCH_PUSHES_PROFILE=file` writes a cProfile of
the pushes alone; `BENCH_PUSHES_PARTS=1` prints where the pushes' CPU goes (bench/_push_parts.py:
each template's own renders, the boards' contexts, the regions' inputs, the values' marshal).
"""

from __future__ import annotations

import cProfile
import os
import random
import statistics
import time
from typing import Any

from bench import _push_parts
from bench._site_setup import django_on_a_throwaway_database, human_move, person, started_table

RUNS = int(os.environ.get("BENCH_PUSHES_RUNS", "3"))
MOVES = int(os.environ.get("BENCH_PUSHES_MOVES", "40"))
SPECTATORS = int(os.environ.get("BENCH_PUSHES_SPECTATORS", "1"))
GAMES = tuple(os.environ.get("BENCH_PUSHES_GAMES", "midnight-bakery,cakehalla").split(","))
LANGUAGES = os.environ.get("BENCH_PUSHES_LANGUAGES", "en").split(",")
# BENCH_PUSHES_PROFILE=file: cProfile of the pushes alone (not the moves), written there at the end.
PROFILE = os.environ.get("BENCH_PUSHES_PROFILE", "")
profiler = cProfile.Profile()
# BENCH_PUSHES_PARTS=1: the CPU of each part of the pushes, timed apart (bench/_push_parts.py).
PARTS = os.environ.get("BENCH_PUSHES_PARTS", "") == "1"


COUNTS = ("rendered", "shared", "pieces rendered", "pieces shared")
ALL_MODES = {
    "nothing shared": (0, 0),
    "regions shared": (256, 0),
    "regions and pieces": (256, 8192),
}
# BENCH_PUSHES_MODES=pieces: only the way the site runs (regions and pieces shared), for pairs.
MODES = {
    name: keep
    for name, keep in ALL_MODES.items()
    if os.environ.get("BENCH_PUSHES_MODES", "all") == "all" or name == "regions and pieces"
}


def one_game(kind: str, seed: int, mode: str, warm_up: bool = False) -> tuple[float, ...]:
    """Play MOVES moves; per move: CPU seconds of every viewer's push, and regions and pieces
    rendered and shared (a warm-up's pushes are not profiled)."""
    from django.utils import translation

    from games import services
    from games.boards import Sent, render_diff
    from games.boards import pieces as pieces_module
    from games.boards import renders as renders_module
    from games.boards import shared as shared_module
    from games.boards.renders import render_counts
    from games.boards.shared import table_at

    renders_module.RENDERS_KEEP, pieces_module.PIECES_KEEP = MODES[mode]
    shared_module.forget_all()
    table = started_table(kind, 4, 4, seed)
    viewers: list[Any] = list(table.humans.values())
    tag = list(MODES).index(mode)
    viewers += [person(f"watcher-{kind}-{seed}-{tag}-{i}") for i in range(SPECTATORS)]
    kept: list[Sent] = [{} for _ in viewers]
    versions = [-1 for _ in viewers]
    rng = random.Random(seed)
    cpu = 0.0
    before = dict(render_counts)
    moves = 0
    while moves < MOVES:
        move = human_move(table, rng)
        if move is None:
            break
        user, action, version, _ = move
        services.play(table.game_id, user, action, version)
        moves += 1
        if PROFILE and not warm_up:
            profiler.enable()
        if PARTS:
            _push_parts.counting(not warm_up)
        start = time.process_time()
        for i, viewer in enumerate(viewers):
            at = table_at(table.game_id, version + 1)
            base, versions[i] = versions[i], at.game.version
            with translation.override(LANGUAGES[i % len(LANGUAGES)]):
                _, kept[i] = render_diff(at.game, viewer, kept[i], base, at)
        cpu += time.process_time() - start
        if PARTS:
            _push_parts.counting(False)
            if not warm_up:
                _push_parts.moved()
        if PROFILE and not warm_up:
            profiler.disable()
    counts = [render_counts[k] - before.get(k, 0) for k in COUNTS]
    return (cpu / moves, *(c / moves for c in counts))


def main() -> None:
    """Print the median per-move figures for each game and way of sharing."""
    with django_on_a_throwaway_database() as label:
        if PARTS:
            _push_parts.install()
        print(
            f"   {label}; 4 seats + {SPECTATORS} spectator(s); {MOVES} moves, {RUNS} runs;"
            f" languages {','.join(LANGUAGES)}"
        )
        for kind in GAMES:
            rows: dict[str, list[tuple[float, ...]]] = {mode: [] for mode in MODES}
            # A game first, not counted: the templates compile once per language on first use.
            one_game(kind, 99, list(MODES)[-1], warm_up=True)
            for run in range(RUNS):
                order = list(MODES)[run % len(MODES) :] + list(MODES)[: run % len(MODES)]
                for mode in order:  # each way goes first in turn
                    rows[mode].append(one_game(kind, 100 + run, mode))
            for mode, figures in rows.items():
                cpu, *counts = (statistics.median(f[i] for f in figures) for i in range(5))
                print(
                    f"   {kind:16} {mode:18}: {cpu * 1000:6.2f} ms CPU a move for all pushes; "
                    f"a move: regions {counts[0]:5.2f} rendered, {counts[1]:5.2f} shared; "
                    f"pieces {counts[2]:5.2f} rendered, {counts[3]:5.2f} shared"
                )
            if PARTS:
                _push_parts.report(kind)
        if PROFILE:
            profiler.dump_stats(PROFILE)


if __name__ == "__main__":
    main()
