"""A bot account's own table page: the table without move controls, and why."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.fixtures import client_for
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at

pytestmark = pytest.mark.django_db

THROUGH_THE_API = "You play this seat through the API"


def test_a_bot_accounts_page_at_its_turn_shows_no_move_controls_and_says_why(
    player: User, rival: User
) -> None:
    game = two_baker_table(player, rival)
    first = user_at(game, state_of(game).turn)
    page = client_for(first).get(f"/games/{game.pk}/").content.decode()
    assert 'data-your-move="yes"' in page and THROUGH_THE_API not in page  # a person's turn

    first.plays_by_api = True
    first.save(update_fields=["plays_by_api"])
    page = client_for(first).get(f"/games/{game.pk}/").content.decode()
    assert 'data-your-move="no"' in page and "You cannot act now" in page
    assert THROUGH_THE_API in page
    other = user_at(game, 1 - state_of(game).turn)
    assert THROUGH_THE_API not in client_for(other).get(f"/games/{game.pk}/").content.decode()
