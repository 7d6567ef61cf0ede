"""One way to tell: the services and features tell typed events (games/events.py), and only the
platform sends to a channel group (games/groups.py, called by the events' receivers that
games/wiring.py connects; the sockets in games/live/). A scan of the app's code holds it: no
module elsewhere names a group send or the channel layer's, imports a sender from games.groups,
or makes a raw Django signal of its own."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ("accounts", "bakery_site", "games")
PLATFORM = ("games/groups.py", "games/wiring.py", "games/live/")
# What a module outside the platform may take from games.groups: the groups' names (a socket
# joins them) and the layer's probe (/healthz).
NAMES = {"group_name", "user_group", "tournament_group", "review_group", "layer_answers"}
SENDS = {"group_send", "send_to_group", "go_to", "recheck_sockets"}
EVENTS = "games/events.py"


def app_modules(root: Path) -> Iterator[tuple[str, ast.Module]]:
    """(path from the root, syntax tree) of every module of the app's code: not its tests."""
    for top in APP:
        for path in sorted((root / top).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            if "/tests/" not in f"/{where}" and "/migrations/" not in where:
                yield where, ast.parse(path.read_text(), where)


def group_sends(root: Path) -> list[str]:
    """Where a module outside the platform sends to a channel group, or could."""
    found = []
    for where, tree in app_modules(root):
        if where.startswith(PLATFORM):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "games.groups":
                found += [f"{where} imports {a.name}" for a in node.names if a.name not in NAMES]
            elif isinstance(node, ast.Import):
                found += [
                    f"{where} imports {a.name}" for a in node.names if a.name == "games.groups"
                ]
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module == "games"
                and any(a.name == "groups" for a in node.names)
            ):
                found.append(f"{where} imports games.groups")
            elif isinstance(node, ast.Attribute) and node.attr in SENDS:
                found.append(f"{where}:{node.lineno} names {node.attr}")
            elif isinstance(node, ast.Name) and node.id in SENDS:
                found.append(f"{where}:{node.lineno} names {node.id}")
    return found


def raw_signals(root: Path) -> list[str]:
    """Where a module other than games/events.py makes a signal of its own."""
    found = []
    for where, tree in app_modules(root):
        if where == EVENTS:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "django.dispatch":
                found += [f"{where} imports {a.name}" for a in node.names if a.name == "Signal"]
            elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("Signal"):
                found.append(f"{where}:{node.lineno} makes a Signal")
            elif isinstance(node, ast.ClassDef) and any(
                ast.unparse(base).endswith("Signal") for base in node.bases
            ):
                found.append(f"{where}:{node.lineno} subclasses Signal")
    return found


def test_only_the_platform_sends_to_a_channel_group() -> None:
    assert group_sends(ROOT) == []
    assert any(where == "games/groups.py" for where, _ in app_modules(ROOT)), "the scan read"


def test_no_module_but_the_events_makes_a_raw_signal() -> None:
    assert raw_signals(ROOT) == []


def test_the_scans_find_what_they_look_for(tmp_path: Path) -> None:
    """A group send and a raw signal written outside the platform are found (the scans would
    not pass them by)."""
    feature = tmp_path / "games" / "feature"
    feature.mkdir(parents=True)
    (feature / "services.py").write_text(
        "from django.dispatch import Signal\n"
        "from games.groups import send_to_group, user_group\n"
        "changed = Signal()\n"
        "def tell(user_id: int) -> None:\n"
        "    send_to_group(user_group(user_id), {'type': 'page.go'})\n"
    )
    (tmp_path / "games" / "groups.py").write_text("def send_to_group(g, m): pass\n")
    assert group_sends(tmp_path) == [
        "games/feature/services.py imports send_to_group",
        "games/feature/services.py:5 names send_to_group",
    ]
    assert raw_signals(tmp_path) == [
        "games/feature/services.py imports Signal",
        "games/feature/services.py:3 makes a Signal",
    ]
