"""Who may watch: anyone, signed-in people, or only the players, as the host chose."""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games import services
from games.boards import shared
from games.models import Game
from tests.conftest import client_for
from tests.support.finished_games import play_out
from tests.support.sockets import closed_with, next_output, open_board, socket

ONLY_PLAYERS = "Only the players may watch this game"
SIGN_IN = "Log in to watch this game"


def table(host: User, rival: User, watchers: str, start: bool = True) -> Game:
    """A two-baker Midnight Bakery table with that watch setting, started unless told not."""
    game = services.create_game(host, "midnight-bakery", 2, watchers=watchers)
    services.join(game, rival)
    if start:
        services.start(game, host)
    game.refresh_from_db()
    return game


PAGES = ("/games/{}/", "/games/{}/board/", "/games/{}/chat/log/")


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_only_the_players_see_a_players_only_game(
    player: User, rival: User, outsider: User, path: str
) -> None:
    game = table(player, rival, Game.Watchers.PLAYERS)
    url = path.format(game.pk)
    for person, expected in ((outsider, ONLY_PLAYERS), (None, ONLY_PLAYERS)):
        response = client_for(person).get(url)
        assert response.status_code == 403
        assert expected in response.content.decode()
        assert 'role="alert"' in response.content.decode()
    assert client_for(rival).get(url).status_code == 200


@pytest.mark.django_db
def test_a_refusal_is_logged_in_one_line_without_a_traceback(
    player: User, rival: User, outsider: User, caplog: pytest.LogCaptureFixture
) -> None:
    game = table(player, rival, Game.Watchers.PLAYERS)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client_for(outsider).get(f"/games/{game.pk}/").status_code == 403
    refused = [r for r in caplog.records if r.name == "django.request"]
    assert [r.getMessage() for r in refused] == [
        f"Forbidden (Permission denied): /games/{game.pk}/"
    ]
    assert refused[0].exc_info is None and "Traceback" not in caplog.text


@pytest.mark.django_db
def test_signed_in_people_watch_a_people_only_game(
    player: User, rival: User, outsider: User
) -> None:
    game = table(player, rival, Game.Watchers.PEOPLE)
    response = client_for(None).get(f"/games/{game.pk}/")
    assert response.status_code == 403 and SIGN_IN in response.content.decode()
    page = client_for(outsider).get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert 'id="board"' in page.content.decode()


@pytest.mark.django_db
def test_anyone_watches_by_default(player: User, rival: User) -> None:
    game = table(player, rival, Game.Watchers.ANYONE)
    assert client_for(None).get(f"/games/{game.pk}/").status_code == 200


@pytest.mark.django_db
def test_an_open_table_shows_its_waiting_room_so_people_can_sit(
    player: User, rival: User, outsider: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 3, watchers=Game.Watchers.PLAYERS)
    page = client_for(outsider).get(f"/games/{game.pk}/")
    assert page.status_code == 200 and "Take a seat" in page.content.decode()


@pytest.mark.django_db
def test_finished_players_only_games_stay_out_of_history_and_replays(
    player: User, rival: User, outsider: User
) -> None:
    game = play_out(table(player, rival, Game.Watchers.PLAYERS), [player, rival])
    assert game.status == Game.Status.OVER
    replay = client_for(outsider).get(f"/games/{game.pk}/replay/")
    assert replay.status_code == 403 and ONLY_PLAYERS in replay.content.decode()
    assert client_for(rival).get(f"/games/{game.pk}/replay/").status_code == 200
    link = f'href="/games/{game.pk}/replay/"'
    assert link not in client_for(outsider).get("/games/history/").content.decode()
    assert link not in client_for(None).get("/").content.decode()
    assert link in client_for(rival).get("/games/history/").content.decode()
    profile = client_for(outsider).get("/u/alice/").content.decode()
    assert f"/games/{game.pk}/" not in profile


@pytest.mark.django_db
def test_the_host_chooses_on_the_new_table_form(player: User) -> None:
    client = client_for(player)
    form = {"kind": "midnight-bakery", "capacity": "2", "passing": "alternate"}
    response = client.post("/games/new/", {**form, "watchers": "people", "spectator_chat": "on"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.watchers == Game.Watchers.PEOPLE and game.spectator_chat
    refused = client.post("/games/new/", {**form, "watchers": "<everyone>"})
    assert refused.status_code == 400 and Game.objects.count() == 1
    with pytest.raises(services.ServiceError, match="Choose who may watch"):
        services.create_game(player, "midnight-bakery", 2, watchers="nobody")


@pytest.mark.django_db(transaction=True)
async def test_an_outsider_socket_is_refused_where_the_host_says_so(
    player: User, rival: User, outsider: User
) -> None:
    players_only = await database_sync_to_async(table)(player, rival, Game.Watchers.PLAYERS)
    people_only = await database_sync_to_async(table)(player, rival, Game.Watchers.PEOPLE)
    for game, person in ((players_only, outsider), (players_only, None), (people_only, None)):
        ws = await socket(game, person)
        await ws.connect()  # accepted, then closed at once: nothing of the table is sent first
        assert await next_output(ws) == {"type": "websocket.close", "code": 4403}
    # Read for the check alone: nothing of it stays in the process's cache of served tables.
    assert shared.recent(players_only.pk) is None and shared.recent(people_only.pk) is None
    for game, person in ((players_only, rival), (people_only, outsider)):
        ws = await socket(game, person)
        assert (await open_board(ws)).startswith('<div id="board"')
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_watcher_of_the_waiting_room_is_shut_out_when_the_game_starts(
    player: User, rival: User, outsider: User
) -> None:
    game = await database_sync_to_async(table)(player, rival, Game.Watchers.PLAYERS, False)
    watcher = await socket(game, outsider)
    seated = await socket(game, rival)
    await open_board(watcher)
    await open_board(seated)
    await database_sync_to_async(services.start)(game, player)
    assert await closed_with(watcher) == 4403
    pushed = await seated.receive_from()
    assert "board-version" in pushed
    await seated.disconnect()
