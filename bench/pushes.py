"""CPU per move of a table's pushes, with region renders shared between viewers and without.

In-process, on a throwaway database (bench/_site_setup.py): a four-seat table of people, each
seat's socket (and `BENCH_PUSHES_SPECTATORS` spectators, 1) pushed after every move exactly as
the consumer does (the table read once per version, then each viewer's changed regions). The
same seeded game is played with sharing on and off (games.boards.shared.RENDERS_KEEP = 0 keeps
nothing, so nothing is shared), alternately, `BENCH_PUSHES_RUNS` (5) times each; it prints the
median CPU seconds (time.process_time, so other processes on a busy machine do not count) per
move of all pushes, and the regions rendered and shared per move. Nothing is asserted.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any

from bench._site_setup import django_on_a_throwaway_database, human_move, person, started_table

RUNS = int(os.environ.get("BENCH_PUSHES_RUNS", "5"))
MOVES = int(os.environ.get("BENCH_PUSHES_MOVES", "60"))
SPECTATORS = int(os.environ.get("BENCH_PUSHES_SPECTATORS", "1"))
GAMES = ("midnight-bakery", "cakehalla")


def one_game(kind: str, seed: int, share: bool) -> tuple[float, float, float, int]:
    """Play MOVES moves; per move: CPU seconds of every viewer's push, regions rendered, shared."""
    from games import services
    from games.boards import Sent, render_diff
    from games.boards import shared as shared_module
    from games.boards.shared import render_counts, table_at

    shared_module.RENDERS_KEEP = 256 if share else 0
    shared_module.forget_all()
    table = started_table(kind, 4, 4, seed)
    viewers: list[Any] = list(table.humans.values())
    viewers += [person(f"watcher-{kind}-{seed}-{share}-{i}") for i in range(SPECTATORS)]
    kept: list[Sent] = [{} for _ in viewers]
    versions = [-1 for _ in viewers]
    rng = random.Random(seed)
    cpu = 0.0
    rendered, from_others = render_counts["rendered"], render_counts["shared"]
    moves = 0
    while moves < MOVES:
        move = human_move(table, rng)
        if move is None:
            break
        user, action, version, _ = move
        services.play(table.game_id, user, action, version)
        moves += 1
        start = time.process_time()
        for i, viewer in enumerate(viewers):
            at = table_at(table.game_id, version + 1)
            base, versions[i] = versions[i], at.game.version
            _, kept[i] = render_diff(at.game, viewer, kept[i], base, at)
        cpu += time.process_time() - start
    made = render_counts["rendered"] - rendered
    taken = render_counts["shared"] - from_others
    return cpu / moves, made / moves, taken / moves, moves


def main() -> None:
    """Print the median per-move figures for each game, sharing off and on."""
    with django_on_a_throwaway_database() as label:
        print(f"   {label}; 4 seats + {SPECTATORS} spectator(s); {MOVES} moves, {RUNS} runs")
        for kind in GAMES:
            rows: dict[bool, list[tuple[float, float, float, int]]] = {False: [], True: []}
            for run in range(RUNS):
                for share in (run % 2 == 0, run % 2 != 0):  # alternate which goes first
                    rows[share].append(one_game(kind, 100 + run, share))
            for share in (False, True):
                cpu = statistics.median(r[0] for r in rows[share]) * 1000
                made = statistics.median(r[1] for r in rows[share])
                taken = statistics.median(r[2] for r in rows[share])
                print(
                    f"   {kind:16} sharing {'on ' if share else 'off'}: {cpu:6.2f} ms CPU a move "
                    f"for all pushes, {made:5.2f} regions rendered and {taken:5.2f} shared a move"
                )


if __name__ == "__main__":
    main()
