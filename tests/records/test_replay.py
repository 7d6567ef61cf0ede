"""Replays: finished games only, frames rebuilt from the seed and the Action rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape
from markupsafe import escape as board_escape

from accounts.models import User
from games.models import Game
from games.web.replay import Replay
from tests.conftest import client_for
from tests.support.finished_games import (
    cakehalla_with_a_blind_reservation,
    finished_game,
    running_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(player: User, rival: User) -> Game:
    """A finished two-baker night between player and rival (the owl makes three)."""
    return finished_game([player, rival], bots=0)


def replay_url(game: Game, move: int | None = None) -> str:
    base = f"/games/{game.pk}/replay/"
    return base if move is None else f"{base}?move={move}"


def states_by_hand(game: Game) -> list[Any]:
    """Every state of the game, rebuilt here from the seed and the Action rows."""
    engine = game.spec.engine
    players = game.seats.exclude(position=None).count()
    state = engine.new_game(players, seed=game.seed, options=dict(game.options))
    out = [state]
    for action in game.actions.order_by("seq"):
        state = engine.apply_action(state, action.seat, action.payload)
        out.append(state)
    return out


def test_every_frame_is_the_state_reached_by_replaying(night: Game) -> None:
    engine = night.spec.engine
    rebuilt = Replay.of(night)
    expected = states_by_hand(night)
    assert rebuilt.total == night.moves == len(expected) - 1
    assert [engine.dump(rebuilt.state(n)) for n in range(rebuilt.total + 1)] == [
        engine.dump(s) for s in expected
    ]
    assert engine.dump(rebuilt.state(rebuilt.total)) == night.snapshot


def test_a_running_games_replay_is_404_and_says_when_it_opens(player: User, rival: User) -> None:
    game = running_game([player, rival])
    for user in (player, rival, None):
        response = client_for(user).get(replay_url(game, 1))
        assert response.status_code == 404
        assert "The replay opens when the game ends." in response.content.decode()


def test_a_running_games_pages_show_no_hidden_card(player: User, rival: User) -> None:
    game = running_game([player, rival])
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    hidden = [c["id"] for s in game.seats.all() for c in engine.view(state, s.position)["batch"]]
    assert hidden
    pages = [
        replay_url(game),
        replay_url(game, 0),
        "/games/history/",
        f"/games/history/?player={player.username}",
        f"/u/{player.username}/",
        "/leaderboards/?bots=1",
        "/stats/",
    ]
    for url in pages:
        body = client_for(rival).get(url).content.decode()
        assert not [card for card in hidden if card in body], url


def test_a_frame_shows_who_moved_what_and_every_batch(night: Game, player: User) -> None:
    engine = night.spec.engine
    first = night.actions.order_by("seq").first()
    assert first is not None
    before = Replay.of(night).state(0)
    batch = {c["id"]: c["name"] for c in engine.view(before, first.seat)["batch"]}
    seat = night.seats.get(position=first.seat)
    body = Client().get(replay_url(night, 1)).content.decode()
    assert first.payload["type"] == "keep"
    said = f"{seat.name} ({seat.user.username}) chose a {batch[first.payload['card']]}."
    assert escape(said) in body
    assert "Move <strong>1</strong> of" in body
    after = Replay.of(night).state(1)
    for other in night.seats.all():
        for card in engine.view(after, other.position)["batch"]:
            assert board_escape(card["name"]) in body
    assert body.count('class="card locked"') == 1


def test_the_first_frame_is_the_deal_and_out_of_range_moves_clamp(night: Game) -> None:
    start = Client().get(replay_url(night)).content.decode()
    assert "The deal: nobody has moved yet." in start
    assert 'data-move="0"' in start
    end = Client().get(replay_url(night, 10_000)).content.decode()
    assert f'data-move="{night.moves}"' in end
    assert "The night&#x27;s results" in end or "The night's results" in end
    assert "Every batch at this moment" not in end and "Every batch at this moment" in start
    assert 'data-move="0"' in Client().get(replay_url(night) + "?move=-3").content.decode()
    assert 'data-move="0"' in Client().get(replay_url(night) + "?move=x").content.decode()


def test_htmx_gets_the_frame_alone_with_navigation(night: Game) -> None:
    response = Client().get(replay_url(night, 3), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and body.lstrip().startswith('<div id="replay-frame"')
    for nav, move in (("first", 0), ("prev", 2), ("next", 4), ("last", night.moves)):
        assert f'data-nav="{nav}" href="{replay_url(night)}?move={move}"' in body
    assert 'type="range" name="move" min="0"' in body


def test_the_replay_board_is_read_only(night: Game) -> None:
    body = Client().get(replay_url(night, 2)).content.decode()
    assert '<fieldset class="board board-midnight-bakery replay-board" disabled' in body
    assert "/play/" not in body and "/results/close/" not in body


def test_a_private_games_replay_is_hidden_from_outsiders(
    player: User, rival: User, outsider: User
) -> None:
    game = finished_game([player], bots=1, private=True)
    assert client_for(outsider).get(replay_url(game)).status_code == 404
    assert client_for(player).get(replay_url(game)).status_code == 200


def test_the_finished_table_links_to_its_replay(night: Game) -> None:
    body = Client().get(night.get_absolute_url()).content.decode()
    assert f'href="{replay_url(night)}"' in body


def test_a_cakehalla_replay_names_a_blind_reservation(player: User) -> None:
    game = cakehalla_with_a_blind_reservation(player)
    engine = game.spec.engine
    row = next(a for a in game.actions.order_by("seq") if a.payload.get("tier"))
    rebuilt = Replay.of(game)
    after = engine.view(rebuilt.state(row.seq), row.seat)
    card = next(r for r in after["seats"][row.seat]["reserved"] if r.get("blind"))
    spectator = engine.view(rebuilt.state(row.seq), None)
    assert any(r.get("hidden") for r in spectator["seats"][row.seat]["reserved"])
    body = Client().get(replay_url(game, row.seq)).content.decode()
    assert "reserved the top of the tier" in body
    assert board_escape(card["name"]) in body
