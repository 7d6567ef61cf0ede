"""Every page tells a search engine what it is: a meta description in its head (Lighthouse's SEO
audit), the base template's by default and the page's own where a page has something to say."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest

from accounts.models import User
from tests.conftest import client_for
from tests.support.finished_games import finished_game, running_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
# The site's templates, then each feature app's own (games/notifications/templates/, ...).
TEMPLATE_DIRS = [TEMPLATES, *sorted(ROOT.glob("games/*/templates"))]
EXTENDS = re.compile(r'{%\s*extends\s+"([^"]+)"\s*%}')
OWN_DESCRIPTION = '<meta name="description"'
# Django admin's own pages, and mails, are not the site's pages.
NOT_PAGES = ("admin", "email")


def parent(template: Path) -> str | None:
    """The template this one extends, if any."""
    found = EXTENDS.search(template.read_text())
    return found.group(1) if found else None


def describes(template: Path) -> bool:
    """Whether the page carries a meta description: its own head's, or the base template's."""
    seen = set()
    while template not in seen:
        seen.add(template)
        if OWN_DESCRIPTION in template.read_text():
            return True
        name = parent(template)
        if name is None:
            return False
        template = found(name)
    return False


def found(name: str) -> Path:
    """The template of this name, where Django would find it first."""
    return next((d / name for d in TEMPLATE_DIRS if (d / name).exists()), TEMPLATES / name)


def page_templates() -> list[Path]:
    """The templates that are whole pages: each extends another or is an HTML document."""
    out = []
    for directory in TEMPLATE_DIRS:
        for template in sorted(directory.rglob("*.html")):
            relative = template.relative_to(directory)
            if set(relative.parts) & set(NOT_PAGES) or relative.parts[0] == "jinja2":
                continue
            text = template.read_text()
            if parent(template) or "<html" in text:
                out.append(template)
    return out


def test_every_page_template_carries_a_meta_description() -> None:
    pages = page_templates()
    assert len(pages) > 40  # the site's pages, found
    missing = [str(p.relative_to(ROOT)) for p in pages if not describes(p)]
    assert missing == []


def description(html: bytes) -> str:
    """The page's one meta description (an error if it has none or two)."""
    (meta,) = lxml.html.fromstring(html).cssselect("head meta[name=description]")
    return str(meta.get("content")).strip()


def test_the_pages_that_matter_say_what_they_are_in_their_own_words(
    player: User, rival: User
) -> None:
    game = finished_game([player], "cakehalla")
    table = running_game([player, rival])
    client = client_for(player)
    default = description(client.get("/accounts/settings/").content)
    assert len(default) > 50
    pages = {
        "/games/history/": "finished game",
        "/leaderboards/": "leaderboard",
        "/leaderboards/midnight-bakery/": "Midnight Bakery leaderboard",
        "/stats/": "in numbers",
        "/stats/cakehalla/": "Cakehalla in numbers",
        "/games/rules/midnight-bakery/": "How to play Midnight Bakery",
        "/games/rules/cakehalla/": "How to play Cakehalla",
        "/games/learn/midnight-bakery/": "Learn Midnight Bakery",
        f"/u/{rival.username}/": rival.username,
        f"/games/{table.pk}/": "Midnight Bakery",
        f"/games/{game.pk}/replay/": f"Replay of {game}",
    }
    said = {}
    for path, words in pages.items():
        answer = client.get(path)
        assert answer.status_code == 200, path
        said[path] = description(answer.content)
        assert words in said[path], (path, said[path])
        assert said[path] != default, path
    assert len(set(said.values())) == len(said)  # each its own
