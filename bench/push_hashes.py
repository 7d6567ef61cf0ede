"""One hash of every push text of seeded games at a table of mixed languages: run it on two trees
(each from its own root, `PYTHONPATH=.`) and compare the last line, to show a change to the
boards' renders left every byte a viewer is sent as it was.

On a throwaway database (bench/_site_setup.py, as bench.pushes): `BENCH_HASHES_GAMES` (4) seeded
games of each kind in `BENCH_HASHES_KINDS` (both), of 2 to 4 seats (people, and a greedy bot in
every other game), each played `BENCH_HASHES_MOVES` (60) moves or to its end. Every seated person
and a spectator watch it, their languages dealt round `BENCH_HASHES_LANGUAGES` (en,fr,de); after
every move each viewer's push (games.boards.render_diff, as the consumer sends it) is hashed,
and so is each viewer's whole board (render_whole) at the start and the end. It prints the
pushes counted and the hash of them all, in order. Nothing is timed. `BENCH_HASHES_DUMP=folder`
also writes every text there, one file each in order, to `diff -r` two trees' when they differ.
"""

from __future__ import annotations

import hashlib
import os
import random
from typing import Any

from bench._site_setup import django_on_a_throwaway_database, person, played, started_table

GAMES = int(os.environ.get("BENCH_HASHES_GAMES", "4"))
MOVES = int(os.environ.get("BENCH_HASHES_MOVES", "60"))
KINDS = tuple(os.environ.get("BENCH_HASHES_KINDS", "midnight-bakery,cakehalla").split(","))
LANGUAGES = os.environ.get("BENCH_HASHES_LANGUAGES", "en,fr,de").split(",")
DUMP = os.environ.get("BENCH_HASHES_DUMP", "")


def dump(name: str, text: str) -> None:
    """Write one text to the dump folder, if one is named."""
    if DUMP:
        os.makedirs(DUMP, exist_ok=True)
        with open(os.path.join(DUMP, name), "w") as out:
            out.write(text)


def one_game(kind: str, n: int, digest: Any) -> int:
    """Play game `n` of this kind, every viewer's push put into `digest`; how many texts."""
    from django.utils import translation

    from games.boards import Sent, render_diff
    from games.boards.render import render_whole
    from games.boards.shared import table_at

    seats = 2 + n % 3
    table = started_table(kind, seats, seats - n % 2, 500 + n)
    viewers: list[Any] = [*table.humans.values(), person(f"hash-watcher-{kind}-{n}")]
    languages = [LANGUAGES[(n + i) % len(LANGUAGES)] for i in range(len(viewers))]
    kept: list[Sent] = [{} for _ in viewers]
    versions = [-1 for _ in viewers]
    texts = 0

    def whole() -> None:
        nonlocal texts
        at = table_at(table.game_id)
        for i, viewer in enumerate(viewers):
            with translation.override(languages[i]):
                html, kept[i] = render_whole(at.game, viewer, at)
            versions[i] = at.game.version
            digest.update(html.encode())
            texts += 1
            dump(f"{kind}-{n}-{texts:04}-{i}-whole.html", html)

    whole()
    rng = random.Random(n)
    for version in played(table, rng, MOVES):
        for i, viewer in enumerate(viewers):
            at = table_at(table.game_id, version + 1)
            base, versions[i] = versions[i], at.game.version
            with translation.override(languages[i]):
                text, kept[i] = render_diff(at.game, viewer, kept[i], base, at)
            digest.update(f"\x00{i}\x00".encode() + text.encode())
            texts += 1
            dump(f"{kind}-{n}-{texts:04}-{i}.html", text)
    whole()
    return texts


def main() -> None:
    """Print the texts hashed and their one hash."""
    with django_on_a_throwaway_database() as label:
        digest = hashlib.sha256()
        texts = 0
        for kind in KINDS:
            for n in range(GAMES):
                texts += one_game(kind, n, digest)
        print(
            f"   {label}; {GAMES} games of {','.join(KINDS)}, up to {MOVES} moves, languages"
            f" {','.join(LANGUAGES)}: {texts} texts"
        )
        print(f"   sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
