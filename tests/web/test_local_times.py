"""Times a page shows are written for the reader's zone: a <time data-local> that
static/js/local-time.js (on every page) rewrites in the browser's zone, with its UTC words
meanwhile. A replay said "Finished 6 Dec 2026, 21:00" with no zone at all (it was UTC)."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.services import clocks
from games.vacation.services import take_vacation
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


def test_a_replay_says_when_it_finished_in_utc_for_the_script_to_rewrite(player: User) -> None:
    game = finished_game([player])
    assert game.finished_at is not None
    html = client_for(None).get(f"/games/{game.pk}/replay/").content.decode()
    at = game.finished_at
    assert f'<time datetime="{at.isoformat()}" data-local="date">' in html
    assert f"{at:%H:%M} UTC</time>" in html
    assert "/static/js/local-time.js" in html


def test_the_vacation_page_says_its_days_for_the_script_to_rewrite(player: User) -> None:
    vacation = take_vacation(player, clocks.now().date(), 3)
    html = client_for(player).get("/games/vacation/").content.decode()
    ends = f'<time datetime="{vacation.ends_at.isoformat()}" data-local="day">'
    assert f"until {ends}{clocks.day_words(vacation.ends_at)}</time>" in html
