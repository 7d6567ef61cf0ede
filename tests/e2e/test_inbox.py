"""Issue 32, point 3, in a browser: the menu's unread badge and the inbox on a phone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, person, sign_up

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 360, "height": 740}
TELL = """
from accounts.models import User
from games import services
from games.events import invited
from games.models import Game
import os
host = User.objects.get(username=os.environ["TELL_HOST"])
guest = User.objects.get(username=os.environ["TELL_GUEST"])
for capacity in (2, 3, 4):
    game = services.create_game(host, "cakehalla", capacity)
    invited.send(Game, game_id=game.pk, by=host.pk, to=[guest.pk])
"""


def invite_three_times(db: str, host: str = "inbox_host", guest: str = "inbox_guest") -> None:
    """The host invites the guest to three tables (the friends' helper sends the signal)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "1"}
    env.update(TELL_HOST=host, TELL_GUEST=guest)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, "manage.py", "shell", "-c", TELL]
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)


def too_wide(page: Any) -> int:
    script = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    return int(page.evaluate(script))


def test_the_badge_counts_unread_and_the_inbox_takes_you_to_the_table(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, "inbox_host")
    context.clear_cookies()
    sign_up(page, base, "inbox_guest")
    assert page.locator("#inbox-badge").count() == 0
    invite_three_times(daphne_site["db"])
    page.reload()
    assert page.locator("#inbox-badge").inner_text().startswith("3")
    assert too_wide(page) == 0
    page.screenshot(path=str(artifacts / "inbox-badge-360.png"))
    page.click("a.inbox-link")
    page.wait_for_url(base + "/games/inbox/")
    assert page.locator(".notification.unread").count() == 3
    assert too_wide(page) == 0
    page.screenshot(path=str(artifacts / "inbox-360.png"), full_page=True)
    page.locator(".notification.unread a").first.click()
    page.wait_for_url(f"{base}/games/*/")
    assert page.locator("#inbox-badge").inner_text().startswith("2")
    page.goto(base + "/games/inbox/")
    page.click("text=Mark all read")
    page.wait_for_url(base + "/games/inbox/")
    assert page.locator(".notification.unread").count() == 0
    assert page.locator("#inbox-badge").count() == 0
    page.screenshot(path=str(artifacts / "inbox-read-360.png"), full_page=True)
    context.close()


def test_a_friend_request_shows_in_the_inbox_on_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Any
) -> None:
    base = daphne_site["url"]
    phone = {"width": 390, "height": 844}
    pages = [
        person(browser, base, name, viewport=phone, is_mobile=True, has_touch=True)
        for name in ("crumb_asker", "crumb_asked")
    ]
    asker, asked = pages
    asker.goto(base + "/u/crumb_asked/")
    asker.get_by_role("button", name="Add friend").click()
    asker.get_by_text("You asked crumb_asked to be your friend.").wait_for()
    asked.goto(base + "/")
    assert asked.locator("#inbox-badge").inner_text().startswith("1")
    asked.click("a.inbox-link")
    asked.wait_for_url(base + "/games/inbox/")
    line = asked.locator(".notification.unread", has_text="crumb_asker asks to be your friend.")
    line.wait_for()
    assert too_wide(asked) == 0
    asked.screenshot(path=str(artifacts / "inbox-friend-request-390.png"), full_page=True)
    line.locator("a").click()
    asked.wait_for_url(base + "/games/friends/")
    asked.get_by_role("button", name="Accept").click()
    asked.get_by_text("You and crumb_asker are friends now.").wait_for()
    asker.goto(base + "/games/inbox/")
    asker.locator(
        ".notification.unread", has_text="crumb_asked accepted your friend request."
    ).wait_for()
    assert too_wide(asker) == 0
    for page in pages:
        page.context.close()


def test_the_lobbys_badge_counts_a_notification_without_a_reload(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    """The lobby has no table socket: it asks for the badge every BADGE_POLL_SECONDS (2 here)."""
    base = daphne_site["url"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, "poll_host")
    context.clear_cookies()
    sign_up(page, base, "poll_guest")
    page.goto(base + "/")
    assert page.locator("#inbox-badge").count() == 0
    invite_three_times(daphne_site["db"], "poll_host", "poll_guest")
    page.locator("#inbox-badge").wait_for()
    assert page.locator("#inbox-badge").inner_text().startswith("3")
    page.locator("#inbox-link").click()
    page.wait_for_url("**/games/inbox/")
    context.close()
