"""Check every game the database keeps, as a restored backup must be checked before the site runs
on it (deploy/restore_drill.sh): finished games replay to their results, running tables rebuild
to the version they are stored at, their clocks in order."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.records import audit
from games.services import clocks
from games.services.clocks.check import clock_problems, ran_out

FINISHED, RUNNING = "finished", "running"
NAMED = 20
"""Failed games the last line names; each has its own line above it too."""


@dataclass
class Tally:
    """What the check found so far: games checked and failed, by what they are."""

    checked: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    names: list[str] = field(default_factory=list)
    ran_out: int = 0
    other_rules: int = 0


def table_problems(table: audit.Stored, tally: Tally) -> list[str]:
    """A running table's problems: its rebuild, then its clocks on the rebuilt state (read at
    each table's own now: the check may run beside a site that winds them)."""
    found = audit.rebuilt(table)
    if found.state is None:
        return found.problems
    at = clocks.now()
    tally.ran_out += ran_out(table.seats, at)
    return found.problems + clock_problems(table.game, found.state, table.seats, at)


class Command(BaseCommand):
    help = (
        "Check every game in the database against today's engine: each finished game's export "
        "replays to its stored result (as verify_export checks a file), and each running table "
        "rebuilds from its actions to its stored snapshot with its clocks in order. Exits "
        "non-zero naming every game that fails. Run it on a restored backup before the site "
        "starts on it (deploy/restore_drill.sh)."
    )

    def handle(self, *args: object, **options: object) -> None:
        began, tally = time.monotonic(), Tally()
        each = cast(int, options["verbosity"]) >= 2
        with audit.one_snapshot():
            for game in audit.finished_games():
                if audit.under_other_rules(game.game):
                    tally.other_rules += 1
                    if each:
                        self.stdout.write(f"game {game.game.pk}: under other rules, not replayed.")
                    continue
                self.report(tally, game.game, FINISHED, audit.export_problems(game), each)
            for table in audit.running_tables():
                self.report(tally, table.game, RUNNING, table_problems(table, tally), each)
        self.conclude(tally, time.monotonic() - began)

    def report(self, tally: Tally, game: Game, what: str, problems: list[str], each: bool) -> None:
        """One game's outcome: its problems on stderr (or, with -v 2, that it is in order)."""
        tally.checked[what] += 1
        label = f"game {game.pk} ({game.kind}, {what})"
        if problems:
            tally.failed[what] += 1
            tally.names.append(label)
            self.stderr.write(f"{label}: " + " ".join(problems))
        elif each:
            self.stdout.write(f"{label}: in order.")

    def conclude(self, tally: Tally, seconds: float) -> None:
        """The summary line; then a CommandError (exit 1) naming the games that failed, if any."""
        sound = tally.checked - tally.failed
        summary = (
            f"{sound[FINISHED]} of {tally.checked[FINISHED]} finished games replay to their "
            f"stored results; {sound[RUNNING]} of {tally.checked[RUNNING]} running tables "
            f"rebuild to their stored versions with their clocks in order ({seconds:.1f} s)."
        )
        if tally.other_rules:
            summary += (
                f" {tally.other_rules} finished games were played under rules today's engine "
                "does not play: kept, not replayed."
            )
        if tally.ran_out:
            summary += f" {tally.ran_out} clocks have run out: stand-ins move once the site runs."
        self.stdout.write(summary)
        if tally.names:
            named = ", ".join(tally.names[:NAMED])
            if len(tally.names) > NAMED:
                named += f" and {len(tally.names) - NAMED} more (listed above)"
            total = tally.checked.total()
            raise CommandError(f"{len(tally.names)} of {total} games fail the check: {named}.")
