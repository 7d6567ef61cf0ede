"""accounts imports no game code (docs/architecture.md: accounts sits below the games): a scan of
every module of accounts/, imports inside functions too, and names handed to import_module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def game_imports(root: Path) -> list[str]:
    """Where a module of accounts/ imports from games (at its top or inside a function)."""
    found = []
    for path in sorted((root / "accounts").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), where)):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module"):
                names = [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
            else:
                continue
            found += [
                f"{where}:{node.lineno} {name}"
                for name in names
                if isinstance(name, str) and (name == "games" or name.startswith("games."))
            ]
    return found


def test_accounts_imports_no_game_code() -> None:
    assert game_imports(ROOT) == []
    assert (ROOT / "accounts" / "ratings.py").exists(), "the scan read accounts/"


def test_the_scan_finds_an_import_inside_a_function(tmp_path: Path) -> None:
    (tmp_path / "accounts").mkdir()
    (tmp_path / "accounts" / "late.py").write_text(
        "import importlib\n"
        "def rebuild() -> None:\n"
        "    from games.models import Game\n"
        "    importlib.import_module('games.services')\n"
    )
    assert game_imports(tmp_path) == [
        "accounts/late.py:3 games.models",
        "accounts/late.py:4 games.services",
    ]
