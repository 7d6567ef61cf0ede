"""`--dist loadgroup` grouping again under pytest 9.2: each test marked `xdist_group` gets its
group's name after its id, as pytest-xdist means to do itself.

Why this module exists: pytest 9.2 keeps a node's id in a structured `_id` (`_pytest.nodeid`), and
pytest-xdist 3.8 still writes the old `_nodeid` field to add "@<group>" to the id it sends its
scheduler, so the suffix is lost and every grouped test is handed out alone, silently (reported
upstream: pytest-dev/pytest-xdist#1386, fix proposed in #1388, neither released). Without it
`make test` ran the browser tests (tests/e2e/conftest.py: GROUPS) test by test on both workers
and the "daphne-processes" and "simultaneous" groups side by side with themselves. This writes the
same suffix through pytest's own parser of ids, and only where xdist's own attempt left none, so
it does nothing once a fixed xdist does the job (tests/test_xdist_groups.py holds both).
"""

from __future__ import annotations

import pytest
from _pytest.nodeid import NodeId


def group_of(item: pytest.Item) -> str | None:
    """The item's group, joined as pytest-xdist joins several (sorted, by "_"); None if none."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return "_".join(sorted(names)) if names else None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker of a `--dist loadgroup` run (after pytest-xdist's own hook), each grouped
    test's id ends with "@<group>", which the scheduler on the other side reads as its unit."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        group = group_of(item)
        if group is not None and not item.nodeid.endswith(f"@{group}"):
            item._id = NodeId.parse(f"{item.nodeid}@{group}")
