"""The lobby and table pages for three personas: seated player, rival and outsider."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for
from tests.support.finished_games import play_to_first_results

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def batch_ids(game: Game, user: User) -> list[str]:
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    return [c["id"] for c in engine.view(engine.load(game.snapshot), position)["batch"]]


def test_lobby_lists_open_public_tables_only(open_table: Game, player: User) -> None:
    hidden = services.create_game(player, "midnight-bakery", 2, private=True)
    body = Client().get("/").content.decode()
    assert open_table.get_absolute_url() in body
    assert hidden.get_absolute_url() not in body


def test_lobby_shows_your_running_games(running_game: Game, rival: User) -> None:
    body = client_for(rival).get("/").content.decode()
    assert running_game.get_absolute_url() in body


def test_new_game_form_creates_a_table(player: User) -> None:
    client = client_for(player)
    assert client.get("/games/new/").status_code == 200
    response = client.post(
        "/games/new/",
        {"kind": "midnight-bakery", "capacity": 3, "passing": "next", "private": "on"},
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.capacity, game.options, game.private) == (3, {"passing": "next"}, True)


def test_new_game_needs_login() -> None:
    assert Client().get("/games/new/").status_code == 302


@pytest.mark.parametrize(
    "url", ["join", "leave", "bots/add", "bots/remove", "start", "play", "results/close"]
)
def test_changes_refuse_get_with_405(open_table: Game, player: User, url: str) -> None:
    response = client_for(player).get(f"/games/{open_table.pk}/{url}/")
    assert response.status_code == 405


def test_outsider_joins_with_htmx_and_gets_the_board_partial(
    open_table: Game, outsider: User
) -> None:
    response = client_for(outsider).post(f"/games/{open_table.pk}/join/", headers=HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="board"')
    assert "<html" not in body
    assert "carol" in body


def test_joining_without_htmx_redirects_to_the_table(open_table: Game, outsider: User) -> None:
    response = client_for(outsider).post(f"/games/{open_table.pk}/join/")
    assert response.status_code == 302
    assert response["Location"] == open_table.get_absolute_url()


def test_host_adds_a_bot_and_starts(open_table: Game, player: User) -> None:
    client = client_for(player)
    client.post(f"/games/{open_table.pk}/bots/add/", {"level": "random"}, headers=HTMX)
    client.post(f"/games/{open_table.pk}/start/", headers=HTMX)
    open_table.refresh_from_db()
    assert open_table.status == Game.Status.RUNNING


def test_a_rival_cannot_start_the_table(open_table: Game, rival: User) -> None:
    services.join(open_table, rival)
    response = client_for(rival).post(f"/games/{open_table.pk}/start/", headers=HTMX)
    assert response.status_code == 403


def test_private_table_is_404_to_outsiders_without_the_invite(player: User, outsider: User) -> None:
    game = services.create_game(player, "midnight-bakery", 2, private=True)
    client = client_for(outsider)
    assert client.get(game.get_absolute_url()).status_code == 404
    assert client.get(game.invite_url).status_code == 200
    assert client.get(game.get_absolute_url()).status_code == 200


@pytest.mark.parametrize("persona", ["player", "rival", "outsider", "anonymous"])
def test_no_rival_batch_ever_appears_in_the_table_html(
    running_game: Game, player: User, rival: User, outsider: User, persona: str
) -> None:
    viewer = {"player": player, "rival": rival, "outsider": outsider, "anonymous": None}[persona]
    body = client_for(viewer).get(running_game.get_absolute_url()).content.decode()
    assert body.count("<html") == 1
    for seated in (player, rival):
        for card in batch_ids(running_game, seated):
            assert (card in body) == (seated == viewer), (persona, seated.username, card)


def test_seated_player_sees_their_batch_as_buttons(running_game: Game, player: User) -> None:
    body = client_for(player).get(running_game.get_absolute_url()).content.decode()
    assert "Your batch" in body
    assert body.count('class="card"') >= len(batch_ids(running_game, player))


def test_play_over_htmx_returns_the_board(running_game: Game, player: User) -> None:
    card = batch_ids(running_game, player)[0]
    response = client_for(player).post(
        f"/games/{running_game.pk}/play/",
        {"action": json.dumps({"type": "keep", "card": card}), "version": running_game.version},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "Locked" in response.content.decode()


LIVE = {**HTMX, "X-Bakehouse-Live": "1"}


def test_a_play_from_a_live_page_is_taken_and_answered_empty(
    running_game: Game, player: User
) -> None:
    """The page's socket brings the new board; the answer does not render it a second time."""
    card = batch_ids(running_game, player)[0]
    response = client_for(player).post(
        f"/games/{running_game.pk}/play/",
        {"action": json.dumps({"type": "keep", "card": card}), "version": running_game.version},
        headers=LIVE,
    )
    assert response.status_code == 204 and response.content == b""
    running_game.refresh_from_db()
    assert response.headers["X-Bakehouse-Version"] == str(running_game.version)
    assert running_game.actions.filter(user=player).count() == 1


def test_seating_and_starting_from_a_live_page_are_answered_empty(
    open_table: Game, player: User, rival: User
) -> None:
    """Join, the bots, leave and start change what every socket at the table shows, so the
    page's own socket brings the new board; the answer carries only the version it made."""
    base = f"/games/{open_table.pk}"
    steps = [
        (rival, "join", {}),
        (rival, "leave", {}),
        (player, "bots/add", {"level": "random"}),
    ]
    for person, url, data in steps:
        before = open_table.version
        response = client_for(person).post(f"{base}/{url}/", data, headers=LIVE)
        open_table.refresh_from_db()
        assert response.status_code == 204 and response.content == b"", url
        assert response.headers["X-Bakehouse-Version"] == str(open_table.version), url
        assert open_table.version == before + 1, url
    bot = open_table.seats.exclude(bot="").get()
    removed = client_for(player).post(f"{base}/bots/remove/", {"seat": bot.pk}, headers=LIVE)
    assert removed.status_code == 204 and not open_table.seats.exclude(bot="").exists()
    assert client_for(rival).post(f"{base}/join/", headers=LIVE).status_code == 204
    started = client_for(player).post(f"{base}/start/", headers=LIVE)
    open_table.refresh_from_db()
    assert started.status_code == 204 and open_table.status == Game.Status.RUNNING
    assert started.headers["X-Bakehouse-Version"] == str(open_table.version)


def test_a_refused_join_from_a_live_page_comes_with_the_board_and_why(
    running_game: Game, outsider: User
) -> None:
    response = client_for(outsider).post(f"/games/{running_game.pk}/join/", headers=LIVE)
    assert response.status_code == 400 and 'id="board"' in response.content.decode()
    assert not running_game.seats.filter(user=outsider).exists()


def test_a_refused_play_from_a_live_page_still_comes_with_the_board_and_why(
    running_game: Game, player: User
) -> None:
    card = batch_ids(running_game, player)[0]
    client = client_for(player)
    stale = client.post(
        f"/games/{running_game.pk}/play/",
        {"action": json.dumps({"type": "keep", "card": card}), "version": 0},
        headers=LIVE,
    )
    illegal = client.post(
        f"/games/{running_game.pk}/play/",
        {"action": json.dumps({"type": "keep", "card": "nope"}), "version": running_game.version},
        headers=LIVE,
    )
    assert stale.status_code == 409 and "moved on" in stale.content.decode()
    assert illegal.status_code == 400 and 'id="board"' in illegal.content.decode()
    assert not running_game.actions.filter(user=player).exists()


def test_a_stale_play_is_409_with_the_board_and_a_message(running_game: Game, player: User) -> None:
    card = batch_ids(running_game, player)[0]
    response = client_for(player).post(
        f"/games/{running_game.pk}/play/",
        {"action": json.dumps({"type": "keep", "card": card}), "version": 0},
        headers=HTMX,
    )
    body = response.content.decode()
    assert response.status_code == 409
    assert "moved on" in body and 'id="board"' in body


def test_a_play_posts_the_moment_the_page_showed(
    running_game: Game, player: User, rival: User
) -> None:
    page = client_for(player).get(running_game.get_absolute_url()).content.decode()
    assert 'name="moment" value="1.1"' in page
    shown = running_game.version
    rival_card = batch_ids(running_game, rival)[0]
    services.play(running_game, rival, {"type": "keep", "card": rival_card}, shown)
    response = client_for(player).post(
        f"/games/{running_game.pk}/play/",
        {
            "action": json.dumps({"type": "keep", "card": batch_ids(running_game, player)[0]}),
            "version": shown,
            "moment": "1.1",
        },
        headers=HTMX,
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    "raw", ["{not json", "[1, 2]", json.dumps({"type": "keep", "card": "nope-01"})]
)
def test_an_illegal_play_is_400_with_the_board_never_500(
    running_game: Game, player: User, raw: str
) -> None:
    response = client_for(player).post(
        f"/games/{running_game.pk}/play/",
        {"action": raw, "version": running_game.version},
        headers=HTMX,
    )
    assert response.status_code == 400
    assert 'id="board"' in response.content.decode()


def test_the_rivals_cards_cannot_be_played_by_the_player(
    running_game: Game, player: User, rival: User
) -> None:
    card, *others = batch_ids(running_game, rival)
    response = client_for(player).post(
        f"/games/{running_game.pk}/play/",
        {"action": json.dumps({"type": "keep", "card": card}), "version": running_game.version},
        headers=HTMX,
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert not [other for other in others if other in body]


def test_an_outsider_cannot_play(running_game: Game, outsider: User) -> None:
    response = client_for(outsider).post(
        f"/games/{running_game.pk}/play/", {"action": "{}", "version": 1}, headers=HTMX
    )
    assert response.status_code == 403


def test_board_endpoint_answers_204_when_nothing_changed(running_game: Game) -> None:
    client = Client()
    url = f"/games/{running_game.pk}/board/"
    assert client.get(url, {"version": running_game.version}).status_code == 204
    assert client.get(url, {"version": 0}).status_code == 200


def test_healthz_answers_200() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}


def test_admin_lists_games_seats_and_a_read_only_action_log(running_game: Game) -> None:
    admin = User.objects.create_superuser("root", password="a-long-admin-secret")
    client = client_for(admin)
    for url in ("/admin/games/game/", "/admin/games/seat/", "/admin/games/action/"):
        assert client.get(url).status_code == 200
    assert client.get("/admin/games/game/?kind=midnight-bakery&status=running").status_code == 200
    assert client.get("/admin/games/action/add/").status_code == 403


def test_closing_results_from_a_live_page_is_answered_empty(
    running_game: Game, player: User
) -> None:
    """Its socket closes the results on the page (and in the person's other tabs); the answer
    does not render the board a second time."""
    play_to_first_results(running_game)
    response = client_for(player).post(
        f"/games/{running_game.pk}/results/close/", {"seen": "1"}, headers=LIVE
    )
    assert response.status_code == 204 and response.content == b""
    assert running_game.seats.get(user=player).results_seen == 1


def test_results_closed_already_come_back_with_the_board(running_game: Game, player: User) -> None:
    """A page whose push of the closed results never came still shows them: its next tap changes
    nothing, so it is answered with the board as stored, the results closed."""
    play_to_first_results(running_game)
    client = client_for(player)
    url = f"/games/{running_game.pk}/results/close/"
    first = client.post(url, {"seen": "1"}, headers=LIVE)
    again = client.post(url, {"seen": "1"}, headers=LIVE)
    assert first.status_code == 204
    assert again.status_code == 200 and 'id="board"' in again.content.decode()
    assert "Back to the ovens" not in again.content.decode()


def test_closing_results_without_a_socket_answers_with_the_board(
    running_game: Game, player: User
) -> None:
    play_to_first_results(running_game)
    client = client_for(player)
    assert "Back to the ovens" in client.get(f"/games/{running_game.pk}/board/").content.decode()
    response = client.post(f"/games/{running_game.pk}/results/close/", {"seen": "1"}, headers=HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and 'id="board"' in body
    assert "Back to the ovens" not in body


def test_the_table_page_reads_the_seats_once(running_game: Game, player: User) -> None:
    """The board and the chat panel share one read of the seats."""
    client = client_for(player)
    with CaptureQueriesContext(connection) as captured:
        page = client.get(running_game.get_absolute_url())
    assert page.status_code == 200 and 'id="chat"' in page.content.decode()
    seat_reads = [q["sql"] for q in captured if 'FROM "games_seat"' in q["sql"]]
    assert len(seat_reads) == 1, seat_reads
