"""Master bots thinking beside the tables (issue 48): `BENCH_WEB_MASTERS` tables of Midnight Bakery,
each four master bots alone, kept running on the site while the tables' clock runs.

Run as `python -m bench.web.masters K` with the site's environment (its database): it deals K
rated tables of four masters (rated, so no house pace holds them back: each bot moves as soon as
the last move is stored), says "ready", and deals a new one whenever one ends, until SIGTERM; then
it prints one JSON object: the tables dealt and the masters' moves stored meanwhile. The site's
own runners play them (the first move of a table after its runner's sweep finds it,
BOT_SWEEP_SECONDS), each decision in the serving process's thinking pool (games/thinking.py) for
MASTER_BOT_SECONDS.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from bench.web.site import ROOT, Site

KIND = "midnight-bakery"
SEATS = 4


def master_table() -> int:
    """A rated table of four master bots, dealt: its game id."""
    from django.db import transaction

    from games.services.base import lock
    from games.services.dealing import deal
    from games.services.hosting import add_bot, bot_account
    from games.services.tables import check_start, open_table

    with transaction.atomic():
        host = bot_account("master", set())
        game = open_table(host, KIND, SEATS, host_bot="master", rated=True)
        for _ in range(SEATS - 1):
            add_bot(game, host, "master")
        game = lock(game.pk)
        deal(game, check_start(game, host))
    return int(game.pk)


STOPPED: list[int] = []


def stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM: end the loop at its next turn."""
    STOPPED.append(signum)


def main() -> None:
    """Keep K master tables running until SIGTERM; print what they did."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
    import django

    django.setup()
    from games.models import Action, Game

    signal.signal(signal.SIGTERM, stop)
    count = int(sys.argv[1])
    dealt = [master_table() for _ in range(count)]
    print("ready", flush=True)  # beside() starts the clock only now
    while not STOPPED:
        running = Game.objects.filter(pk__in=dealt, status=Game.Status.RUNNING).count()
        dealt.extend(master_table() for _ in range(count - running))
        time.sleep(1.0)
    moves = Action.objects.filter(game_id__in=dealt, bot="master").count()
    print(json.dumps({"tables": len(dealt), "moves": moves}), flush=True)


@contextmanager
def beside(site: Site, count: int) -> Iterator[dict[str, Any]]:
    """While the block runs, `count` master tables think on the site (none: nothing is started);
    yields what they did, filled in once the block is over."""
    done: dict[str, Any] = {}
    if not count:
        yield done
        return
    keeper = subprocess.Popen(
        [sys.executable, "-m", "bench.web.masters", str(count)],
        cwd=ROOT,
        env=site.env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert keeper.stdout is not None
    try:
        ready = keeper.stdout.readline()  # its first tables are dealt (a slow start: it waits)
        if ready.strip() != "ready":
            raise RuntimeError(f"the master tables' keeper did not start: {ready!r}")
        yield done
    finally:
        keeper.send_signal(signal.SIGTERM)
        out, _ = keeper.communicate(timeout=120)
        lines = [line for line in out.splitlines() if line.startswith("{")]
        done.update(json.loads(lines[-1]) if lines else {"failed": keeper.returncode})


def report(count: int, done: dict[str, Any]) -> None:
    """The master tables' line under the run's report."""
    if count:
        print(
            f"   beside: {count} tables of four master bots at a time, {done.get('tables', 0)} "
            f"dealt, {done.get('moves', 0)} master moves stored during the run{failed(done)}",
            flush=True,
        )


def failed(done: dict[str, Any]) -> str:
    """Words for a keeper that ended without its report."""
    return f" (the keeper failed: exit {done['failed']})" if "failed" in done else ""


if __name__ == "__main__":
    main()
