"""A third game joins the house without a line of shared code changing.

High Card (tests/third_game/: its engine package, its one game module, its templates) is
registered by one call, then played through the services, a table's socket and the replay.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils.html import escape

from accounts.models import User
from games import catalog, services
from games.kinds.base import AnyKind
from games.models import Action, Game, StatCount
from games.records import stats
from tests.conftest import client_for
from tests.support.sockets import open_board, shown_version, socket
from tests.third_game.kind import HighCard

pytestmark = pytest.mark.django_db(transaction=True)

TEMPLATES = Path(__file__).resolve().parent / "jinja2"


@pytest.fixture
def high_card(settings: Any) -> Iterator[AnyKind]:
    """High Card on offer for one test: its templates found, its one registry call made."""
    templates = copy.deepcopy(settings.TEMPLATES)
    boards = next(t for t in templates if t.get("NAME") == "boards")
    boards["DIRS"] = [*boards["DIRS"], TEMPLATES]
    settings.TEMPLATES = templates
    kind = catalog.register(HighCard())
    yield kind
    catalog.unregister(kind.slug)


def seated_game(player: User, rival: User) -> Game:
    game = services.create_game(player, "high-card", 2)
    services.join(game, rival)
    return services.start(game, player)


def hand_of(game: Game, user: User) -> list[int]:
    game.refresh_from_db()
    engine = game.spec.engine
    return list(engine.view(engine.load(game.snapshot), game.seats.get(user=user).position)["hand"])


def user_at(game: Game, position: int) -> User:
    return game.seats.select_related("user").get(position=position).user


def play_first_card(game: Game, position: int) -> int:
    """The player at that position plays the first card of their hand; the card played."""
    game.refresh_from_db()
    user = user_at(game, position)
    card = hand_of(game, user)[0]
    services.play(game, user, {"type": "play", "card": card}, game.version)
    return card


async def test_a_registered_game_plays_through_services_socket_and_replay(
    high_card: AnyKind, player: User, rival: User
) -> None:
    game = await database_sync_to_async(seated_game)(player, rival)
    mine = await database_sync_to_async(hand_of)(game, player)
    theirs = await database_sync_to_async(hand_of)(game, rival)
    ws = await socket(game, player)
    board = await open_board(ws)
    assert all(f'data-card="hc-{card}"' in board for card in mine)
    assert not any(f'data-card="hc-{card}"' in board for card in theirs)

    first = await database_sync_to_async(play_first_card)(game, 0)
    push = await ws.receive_from()
    await database_sync_to_async(game.refresh_from_db)()
    assert shown_version(push) == game.version
    assert f'data-played="hc-{first}"' in push

    second = await database_sync_to_async(play_first_card)(game, 1)
    push = await ws.receive_from()
    assert f'data-played="hc-{second}"' in push and "Won by" in push
    await ws.disconnect()

    await database_sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.OVER and game.moves == 2
    seats = await database_sync_to_async(lambda: list(game.seats.order_by("position")))()
    assert [s.score for s in seats] == [first, second]
    assert [s.winner for s in seats] == [first > second, second > first]
    dealt = {player.pk: mine, rival.pk: theirs}
    kept = [set(dealt[s.user_id]) - {card} for s, card in zip(seats, (first, second), strict=True)]
    assert [{s.breakdown["kept"]} for s in seats] == kept
    replayed = await database_sync_to_async(services.replay)(game)
    assert high_card.engine.dump(replayed) == game.snapshot


def test_the_replay_shows_each_move_in_its_words_and_every_hand(
    high_card: AnyKind, player: User, rival: User
) -> None:
    game = seated_game(player, rival)
    dealt = {u.username: hand_of(game, u) for u in (player, rival)}
    first = play_first_card(game, 0)
    play_first_card(game, 1)
    url = f"/games/{game.pk}/replay/"
    deal = Client().get(url).content.decode()
    assert "The deal: nobody has moved yet." in deal
    assert all(f'data-card="hc-{card}"' in deal for hand in dealt.values() for card in hand)
    one = Client().get(url + "?move=1").content.decode()
    mover = user_at(game, 0).username
    assert escape(f"North ({mover}) played the {first}.") in one
    end = Client().get(url + "?move=2").content.decode()
    assert "Every card is down." in end and "Won by" in end
    assert '<fieldset class="board board-high-card replay-board" disabled' in end


def test_the_lobby_offers_it_and_a_quick_hand_seats_its_bot(
    high_card: AnyKind, player: User
) -> None:
    client = client_for(player)
    lobby = client.get("/").content.decode()
    assert "Rated High Card against bots" in lobby
    # The lobby's invitation is the first game's, in that game's words.
    assert "start your own, or bake a night against bots right now." in lobby
    assert high_card.quick_pitch == "play a hand of High Card"
    assert (
        '<option value="high-card">High Card</option>' in client.get("/games/new/").content.decode()
    )
    response = client.post("/games/quick/", {"kind": "high-card"})
    game = Game.objects.get(kind="high-card")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.capacity == 2 and list(
        game.seats.exclude(bot="").values_list("bot", flat=True)
    ) == ["greedy"]
    me = game.seats.get(user=player)
    if me.position == 1:  # the bot sat first and has played already
        assert Action.objects.filter(game=game, seat=0).exists()
    card = hand_of(game, player)[0]
    game.refresh_from_db()
    played = client.post(
        f"/games/{game.pk}/play/",
        {"action": f'{{"type": "play", "card": {card}}}', "version": game.version},
    )
    assert played.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.moves == 2


def test_its_waiting_room_speaks_its_words_and_refuses_a_card_not_held(
    high_card: AnyKind, player: User, rival: User
) -> None:
    game = services.create_game(player, "high-card", 2)
    services.join(game, rival)
    body = client_for(player).get(game.get_absolute_url()).content.decode()
    # Its own sentences, as its kind declares them (no fixed "when the <word> starts"):
    assert "Seats are drawn at random when the first cards are dealt." in body
    assert "Deal the hand</button>" in body
    services.start(game, player)
    game.refresh_from_db()
    held = set(hand_of(game, player)) | set(hand_of(game, rival))
    card = next(c for c in range(1, 14) if c not in held)
    mover = user_at(game, 0)
    response = client_for(mover).post(
        f"/games/{game.pk}/play/",
        {"action": f'{{"type": "play", "card": {card}}}', "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "You cannot play that card now." in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_its_stats_page_and_recount_need_nothing_of_it(
    high_card: AnyKind, player: User, rival: User
) -> None:
    game = seated_game(player, rival)
    play_first_card(game, 0)
    play_first_card(game, 1)
    assert StatCount.objects.get(kind="high-card", chart="games", key="2").count == 1
    page = Client().get("/stats/high-card/").content.decode()
    assert "High Card in numbers" in page and "From 1 finished game." in page
    assert "Win rate by turn order" in page and "1st to play" in page and "2nd to play" in page
    assert "Night Owl" not in page and "Most bought cards" not in page
    assert stats.recount("high-card") == stats.Recount(counted=1, skipped=[])


def test_its_how_to_play_page_is_the_short_one_without_an_in_short_panel(
    high_card: AnyKind,
) -> None:
    page = Client().get("/games/rules/high-card/").content.decode()
    assert "How to play High Card" in page and "are not written up here yet" in page
    assert 'id="summary"' not in page
