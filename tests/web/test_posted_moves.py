"""Moves posted by a page whose socket is open (the live header): made and answered with an
empty 204, refused with the board and the words, and nobody learns of a table they may not see."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.models import Action, Game
from games.web.table_changes import LIVE_HEADER
from tests.conftest import client_for
from tests.live.test_socket_moves import keep_fields

pytestmark = pytest.mark.django_db

LIVE = {"HX-Request": "true", LIVE_HEADER: "1"}


def test_a_refused_live_move_comes_with_the_board_and_the_words(
    running_game: Game, player: User
) -> None:
    fields = keep_fields(running_game, player, version=running_game.version - 1)
    fields["moment"] = "an older pick"
    response = client_for(player).post(f"/games/{running_game.pk}/play/", fields, headers=LIVE)
    assert response.status_code == 409
    body = response.content.decode()
    assert "The table moved on while you chose" in body and 'id="board-live"' in body
    assert not Action.objects.filter(game=running_game).exists()


def test_a_stranger_posting_to_a_private_table_finds_no_table(
    player: User, rival: User, outsider: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 2, private=True)
    services.join(game, rival, game.invite)
    services.start(game, player)
    fields = keep_fields(game, player)
    response = client_for(outsider).post(f"/games/{game.pk}/play/", fields, headers=LIVE)
    assert response.status_code == 404
    assert "You do not sit" not in response.content.decode()
    assert not Action.objects.filter(game=game).exists()


def test_a_move_posted_to_no_table_is_404(player: User) -> None:
    fields = {"action": '{"type": "keep", "card": "x"}', "version": "1"}
    response = client_for(player).post("/games/987654/play/", fields, headers=LIVE)
    assert response.status_code == 404


def test_a_made_live_move_reads_its_table_once(running_game: Game, player: User) -> None:
    """A seat's move from a live page is found by the service's own locked read, as a move on the
    socket is: no access check reads the table first (it cost a query a move)."""
    fields = keep_fields(running_game, player)
    table = Game._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        response = client_for(player).post(f"/games/{running_game.pk}/play/", fields, headers=LIVE)
    assert response.status_code == 204
    reads = [q["sql"] for q in queries.captured_queries if f'FROM "{table}"' in q["sql"]]
    assert len(reads) == 1, reads
    assert Action.objects.filter(game=running_game).count() == 1


def test_closing_results_from_a_live_page_with_nothing_to_close_comes_with_the_board(
    running_game: Game, player: User
) -> None:
    response = client_for(player).post(
        f"/games/{running_game.pk}/results/close/", {"seen": "0"}, headers=LIVE
    )
    assert response.status_code == 200
    assert 'id="board-live"' in response.content.decode()
