"""In the browser: a screen left open follows what happens to its table, without a reload."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import PASSWORD, PATIENCE, errors_seen, two_at_a_table

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def make_moderator(db: str, name: str) -> None:
    """A superuser on the browser tests' site, as `manage.py createsuperuser` makes one."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DEBUG": "1",
        "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = ["manage.py", "createsuperuser", "--noinput", "--username", name, "--email", ""]
    subprocess.run([sys.executable, *command], cwd=ROOT, env=env, check=True)


def test_an_abort_takes_the_chat_box_away_on_screens_left_open(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    me, rival = two_at_a_table(browser, base, ("nia", "oli"), "midnight-bakery")
    failed = errors_seen(me)
    for page in (me, rival):
        page.locator("#chat-form").wait_for()
    game_id = re.search(r"/games/(\d+)/", me.url).group(1)  # type: ignore[union-attr]

    make_moderator(daphne_site["db"], "mod_pia")
    admin = browser.new_context().new_page()
    admin.set_default_timeout(PATIENCE)
    admin.goto(base + "/admin/login/")
    admin.fill("#id_username", "mod_pia")
    admin.fill("#id_password", PASSWORD)
    admin.click("input[type=submit]")
    admin.goto(f"{base}/admin/games/game/{game_id}/abort/")
    admin.fill("textarea[name=reason]", "Testing: abort")
    admin.get_by_role("button", name="Abort the game").click()
    admin.wait_for_url(re.compile(rf".*/admin/games/game/{game_id}/change/$"))

    for page in (me, rival):  # no reload: the pages follow the table
        page.locator(
            ".message.aborted", has_text="Testing: abort. The game does not count"
        ).wait_for()
        page.locator("#chat", has_text="its chat is closed").wait_for()
        assert page.locator("#chat-form").count() == 0
    me.screenshot(path=str(artifacts / "aborted-chat-closed.png"), full_page=True)
    assert failed == []
    for page in (me, rival, admin):
        page.context.close()
