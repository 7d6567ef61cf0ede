"""Callers reach the services through what games.services exports, never its inner modules."""

from __future__ import annotations

import ast
from pathlib import Path

import games.services

ROOT = Path(__file__).resolve().parents[2]
# The service modules callers may name as a whole (their verbs read as chat.post, moderation.abort).
# presence: the sockets' rows; moves: a move as the page sends it; rows: a table's rows in SQL;
NAMESPACES = {
    "chat",
    "clocks",
    "moderation",
    "moves",
    "presence",
    "rows",
}
INNER = {
    "autoplay",
    "base",
    "bots",
    "dealing",
    "handover",
    "hints",
    "leaving",
    "move_log",
    "play",
    "rematch",
    "tables",
}


def imports_of_the_services() -> list[tuple[str, str]]:
    """(file, what it imports from games.services) for every module outside the services."""
    found = []
    for path in sorted([*ROOT.glob("games/**/*.py"), *ROOT.glob("accounts/**/*.py")]):
        if "services" in path.relative_to(ROOT).parts[:2]:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "games.services"
            ):
                where = str(path.relative_to(ROOT))
                found += [(where, f"{node.module}:{alias.name}") for alias in node.names]
    return found


def test_callers_import_only_what_the_services_export() -> None:
    exported = set(games.services.__all__) | NAMESPACES
    wrong = []
    for where, name in imports_of_the_services():
        module, _, item = name.partition(":")
        inner = module.removeprefix("games.services").lstrip(".")
        if inner in INNER or (not inner and item not in exported):
            wrong.append(f"{where} imports {name}")
    assert not wrong
    assert imports_of_the_services(), "the scan found the callers"
