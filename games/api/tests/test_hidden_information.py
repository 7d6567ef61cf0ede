"""No hidden card in any API answer: whole games played through the API alone, each answer read
for the cards its reader must not see (the deck, other bakers' batches, the piles' order, a
rival's blind reservation), as the page tests read the pages."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import services
from games.api.tests.conftest import Api
from games.engines import cakehalla
from games.engines import midnight_bakery as mb
from games.models import Game
from tests.engines.midnight_bakery.helpers import QUOTED_WORD, hidden_from

pytestmark = pytest.mark.django_db

Hidden = Callable[[Any, int | None], set[str]]


def cakehalla_hidden(state: Any, seat: int | None) -> set[str]:
    """The piles' cards (face down, in order) and the rivals' reservations made blind (those
    a spectator does not see)."""
    data = cakehalla.dump(state)
    public = set(QUOTED_WORD.findall(json.dumps(cakehalla.view(state, None))))
    hidden = {card for pile in data["piles"] for card in pile}
    for position, baker in enumerate(data["bakers"]):
        if position != seat:
            hidden.update(set(QUOTED_WORD.findall(json.dumps(baker["reserved"]))) - public)
    return hidden


HIDDEN: dict[str, Hidden] = {"midnight-bakery": hidden_from, "cakehalla": cakehalla_hidden}


def leaks(text: str, game: Game, seat: int | None) -> set[str]:
    """The hidden cards of the stored state that this answer shows."""
    game.refresh_from_db()
    if game.snapshot is None:
        return set()
    state = game.spec.engine.load(game.snapshot)
    return set(QUOTED_WORD.findall(text)) & HIDDEN[game.kind](state, seat)


def play_through_api(game: Game, api: Api, watcher: Api, rng: random.Random) -> int:
    """Play the person's seat by the API only until the game ends, reading every answer and a
    spectator's view for leaks; the moves made."""
    moves = 0
    for _ in range(500):
        answer = api.get(f"/games/{game.pk}")
        body = answer.json()
        assert not leaks(answer.content.decode(), game, body["you"])
        if moves % 4 == 0:
            seen = watcher.get(f"/games/{game.pk}")
            assert not leaks(seen.content.decode(), game, None)
        if body["status"] == "over":
            return moves
        if not body["your_move"]:
            continue  # bots answer inline; a round's results may wait on nothing else
        move = {"action": rng.choice(body["legal"]), "version": body["version"]}
        if body["moment"]:
            move["moment"] = body["moment"]
        moved = api.post(f"/games/{game.pk}/move", move)
        assert moved.status_code == 200, moved.content
        assert not leaks(moved.content.decode(), game, body["you"])
        moves += 1
    raise AssertionError("the game did not end")


def test_the_leak_check_finds_a_leak(player: User, rival: User) -> None:
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    services.start(game, player)
    game.refresh_from_db()
    assert leaks(json.dumps(game.snapshot), game, 0)  # the dump holds the piles


@pytest.mark.parametrize("key", ["personal", "app"])
@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_a_whole_game_through_the_api_leaks_nothing(
    kind: str,
    key: str,
    player: User,
    outsider: User,
    api_for: Callable[..., Api],
    app_api_for: Callable[..., Api],
) -> None:
    """With a personal token, and with an app's OAuth2 token (which sees no more)."""
    reader = api_for if key == "personal" else app_api_for
    game = services.create_game(player, kind, 2)
    services.add_bot(game, player, "greedy")
    services.start(game, player)
    moves = play_through_api(game, reader(player), reader(outsider), random.Random(4))
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and moves > 5
    assert game.seats.get(user=player).place is not None


def test_the_midnight_bakery_view_holds_no_other_batch(
    running_game: Game, api_for: Callable[..., Api]
) -> None:
    running_game.refresh_from_db()
    assert running_game.snapshot is not None
    state = mb.load(running_game.snapshot)
    for user in (running_game.host, running_game.seats.exclude(user=running_game.host).get().user):
        body = api_for(user).get(f"/games/{running_game.pk}").content.decode()
        seat = running_game.seats.get(user=user).position
        assert set(QUOTED_WORD.findall(body)) & hidden_from(state, seat) == set()
        assert str(state.rng) not in body
