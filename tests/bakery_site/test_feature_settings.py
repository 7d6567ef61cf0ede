"""Each feature's knobs: declared with their defaults and a line of doc in its conf.py, gathered
into the settings, and set by the environment variable of their name."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.conf import settings

from bakery_site.env import feature_knobs
from tests.bakery_site.test_production_settings import run_django

ROOT = Path(__file__).resolve().parents[2]


def conf_modules() -> list[str]:
    """Every conf.py of the app code, as a module name."""
    found = [*ROOT.glob("accounts/conf.py"), *ROOT.glob("games/**/conf.py")]
    return sorted(".".join(path.relative_to(ROOT).with_suffix("").parts) for path in found)


def undocumented(module: str) -> list[str]:
    """The knobs of a conf module without a `#:` line of doc right above them."""
    path = ROOT / (module.replace(".", "/") + ".py")
    lines = path.read_text().splitlines()
    names = []
    for node in ast.parse(path.read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            knob = isinstance(target, ast.Name) and target.id.isupper()
            if knob and not lines[node.lineno - 2].startswith("#:"):
                names.append(ast.unparse(target))
    return names


def test_every_features_conf_is_gathered_into_the_settings() -> None:
    assert sorted(settings.FEATURE_SETTINGS) == conf_modules()


def test_the_settings_star_import_every_features_conf() -> None:
    # The star imports are the one list (mypy reads the knobs' types from them); FEATURE_SETTINGS
    # is what they loaded, so a conf.py left out of them is left out of both.
    tree = ast.parse((ROOT / "bakery_site" / "settings.py").read_text())
    starred = [
        node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and [alias.name for alias in node.names] == ["*"]
    ]
    assert sorted(name for name in starred if name) == conf_modules()


@pytest.mark.parametrize("module", conf_modules())
def test_every_knob_is_documented_where_it_is_declared(module: str) -> None:
    assert undocumented(module) == []
    knobs = [name for name in vars(importlib.import_module(module)) if name.isupper()]
    assert knobs and all(hasattr(settings, name) for name in knobs)


def test_the_environment_sets_a_features_knob_by_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARENA_MIX_SECONDS", "12.5")
    monkeypatch.setenv("HOUSE_TABLE", "off")
    monkeypatch.setenv("PUSH_SERVICE_HOSTS", " push.example , *.push.example.org ")
    monkeypatch.setenv("NOTICE_MAIL_AFTER", "7")  # the knob's former name
    knobs = feature_knobs(*settings.FEATURE_SETTINGS)
    assert knobs["ARENA_MIX_SECONDS"] == 12.5
    assert knobs["HOUSE_TABLE"] is False
    assert knobs["PUSH_SERVICE_HOSTS"] == ["push.example", "*.push.example.org"]
    assert knobs["NOTIFICATION_MAIL_AFTER"] == 7.0
    assert knobs["TOURNAMENT_ENTRIES_AT_ONCE"] == 10  # not set: its default


def test_a_knob_refuses_words_it_does_not_take(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_MOVES", "sometimes")
    with pytest.raises(RuntimeError, match="BOT_MOVES must be one of after-commit, inline"):
        feature_knobs("games.live.conf")


def test_a_serving_process_reads_the_knobs_from_its_environment() -> None:
    show = "import django; django.setup(); from django.conf import settings; "
    show += "print(settings.AWAY_SECONDS)"
    done = run_django(show, DEBUG="1", AWAY_SECONDS="45")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "45.0"


def test_the_settings_have_no_branch_for_the_tests() -> None:
    """What the tests need (a key to sign with, static files as they are) they set themselves
    (tests/fixtures.py: pytest_configure); the site's settings do not look for pytest."""
    text = (ROOT / "bakery_site" / "settings.py").read_text()
    assert "sys.modules" not in text and "TESTING" not in text
    done = run_django(
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.STORAGES['staticfiles']['BACKEND'].rsplit('.', 1)[1])"
    )
    assert done.stdout.strip() == "CompressedManifestStaticFilesStorage", done.stderr
