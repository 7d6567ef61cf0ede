"""Play exported games again with today's engine and check their stored results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.records import archive


def exports_in(text: str) -> list[object]:
    """The games in a file: one export (export.json) or one per line (games.ndjson)."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass
    games = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            games.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise CommandError(f"Line {number} is not JSON: {exc.msg}.") from exc
    return games


class Command(BaseCommand):
    help = (
        "Re-run the engine on exported games (export.json or games.ndjson files) and check "
        "every seat's stored score, place and win; exits non-zero when any differs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="exported game files")

    def handle(self, *args: object, **options: object) -> None:
        checked, failed = 0, []
        for name in cast(list[str], options["files"]):
            try:
                text = Path(name).read_text()
            except OSError as exc:
                raise CommandError(f"Cannot read {name}: {exc.strerror}.") from exc
            for data in exports_in(text):
                label = f"{name}: game {data.get('id', '?') if isinstance(data, dict) else '?'}"
                problems = archive.verify(data)
                checked += 1
                if problems:
                    failed.append(label)
                    self.stderr.write(f"{label} differs: " + " ".join(problems))
                else:
                    self.stdout.write(f"{label}: replays to its stored result.")
        if not checked:
            raise CommandError("No exported game found.")
        if failed:
            differ = f"{len(failed)} of {checked} games differ"
            raise CommandError(f"{differ} from their stored results: {', '.join(failed)}.")
        self.stdout.write(f"All {checked} games replay to their stored results.")
