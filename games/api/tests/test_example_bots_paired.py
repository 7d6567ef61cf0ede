"""Two example bots (examples/bakehouse_bot.py, two processes, as its README runs them) quick
paired by the site and playing a whole game against each other through the API alone, for each
game: each fresh account upgrades itself to a bot account, enters quick pairing (`--seek`),
waits on its event stream for the table, and plays it by its game stream to the end. The live
Daphne and its SQLite file are test_example_bot.py's (`running_site`)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from games.api.tests.test_example_bot import BOT, PATIENCE, ROOT, Site, running_site

KINDS = ("midnight-bakery", "cakehalla")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with running_site(tmp_path_factory.mktemp("paired-bots-site")) as running:
        yield running


def seeking_bot(site: Site, token: str, kind: str, seed: int) -> subprocess.Popen[str]:
    """The example bot told to find one game of this kind by quick pairing."""
    command = [sys.executable, str(BOT), "--url", site.url, "--token", token, "--upgrade"]
    command += ["--seek", kind, "--games", "1", "--seed", str(seed)]
    return subprocess.Popen(command, cwd=ROOT, text=True, stderr=subprocess.PIPE)


@pytest.mark.parametrize("kind", KINDS)
def test_two_example_bots_are_quick_paired_and_play_a_whole_game(site: Site, kind: str) -> None:
    names = [f"robo-{kind}", f"droid-{kind}"]
    made = site.command("account", *names)
    started = time.monotonic()
    bots = [seeking_bot(site, str(m["token"]), kind, seed) for seed, m in enumerate(made)]
    try:
        said = [b.communicate(timeout=PATIENCE)[1] for b in bots]
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
    print(f"{kind}: paired and played to the end in {time.monotonic() - started:.1f} s")
    for bot, err in zip(bots, said, strict=True):
        assert bot.returncode == 0, err
        assert "is now a bot account" in err and "paired at table" in err, err
    # one pass seats both, so at most one heard its table from its look: the other (or both,
    # if the sweep came between) waited for it on its event stream
    assert any("looking for a" in err for err in said), said
    marks = ",".join("?" * len(names))
    (game,) = site.one(
        "SELECT s.game_id FROM games_seat s JOIN accounts_user u ON u.id = s.user_id"
        f" WHERE u.username IN ({marks}) GROUP BY s.game_id HAVING count(*) = 2",
        *names,
    )
    status, seats, bots_marked, game_kind = site.one(
        "SELECT g.status, count(*), sum(u.plays_by_api), g.kind FROM games_game g"
        " JOIN games_seat s ON s.game_id = g.id JOIN accounts_user u ON u.id = s.user_id"
        " WHERE g.id = ?",
        game,
    )
    assert (status, seats, bots_marked, game_kind) == ("over", 2, 2, kind)
    for name in names:
        own, stand_in = site.one(
            "SELECT sum(a.bot = ''), sum(a.bot != '') FROM games_action a"
            " JOIN accounts_user u ON u.id = a.user_id WHERE a.game_id = ? AND u.username = ?",
            game,
            name,
        )
        assert isinstance(own, int) and own > 3 and not stand_in, (name, own, stand_in)
