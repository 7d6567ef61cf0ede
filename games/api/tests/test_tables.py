"""A table through the API: its view per persona, moves, resigning and chat, through the same
services as the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import services
from games.api.tests.conftest import Api
from games.models import Action, ChatMessage, Game
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def cakehalla(player: User, rival: User) -> Game:
    return two_baker_table(player, rival)


def stored(game: Game) -> tuple[int, int, object]:
    """What a refused request must leave as it was: version, actions, snapshot."""
    game.refresh_from_db()
    return game.version, Action.objects.filter(game=game).count(), game.snapshot


def test_the_seat_sees_its_own_view_and_legal_moves(
    cakehalla: Game, api_for: Callable[..., Api]
) -> None:
    first = user_at(cakehalla, state_of(cakehalla).turn)
    body = api_for(first).get(f"/games/{cakehalla.pk}").json()
    engine = cakehalla.spec.engine
    state = state_of(cakehalla)
    assert body["view"] == engine.view(state, body["you"])
    assert body["legal"] == engine.legal_actions(state, body["you"]) and body["your_move"]
    assert body["version"] == cakehalla.version and body["status"] == "running"
    assert [s["you"] for s in body["seats"]].count(True) == 1
    assert not any(s["bot"] for s in body["seats"])


def test_a_spectator_sees_the_spectators_view_and_no_moves(
    cakehalla: Game, outsider: User, api_for: Callable[..., Api]
) -> None:
    body = api_for(outsider).get(f"/games/{cakehalla.pk}").json()
    assert body["you"] is None and body["legal"] == [] and not body["your_move"]
    assert body["view"] == cakehalla.spec.engine.view(state_of(cakehalla), None)


def test_bots_are_marked(player: User, api_for: Callable[..., Api]) -> None:
    game = services.create_game(player, "cakehalla", 2)
    services.add_bot(game, player, "random")
    seats = api_for(player).get(f"/games/{game.pk}").json()["seats"]
    assert [s["bot"] for s in seats] == [False, True]


def test_a_move_goes_through_the_services_and_bumps_the_version(
    cakehalla: Game, api_for: Callable[..., Api]
) -> None:
    state = state_of(cakehalla)
    api = api_for(user_at(cakehalla, state.turn))
    table = api.get(f"/games/{cakehalla.pk}").json()
    moved = api.post(
        f"/games/{cakehalla.pk}/move", {"action": table["legal"][0], "version": table["version"]}
    )
    assert moved.status_code == 200, moved.content
    assert moved.json()["version"] == table["version"] + 1
    assert Action.objects.filter(game=cakehalla).count() == 1
    assert state_of(cakehalla).turn != state.turn


def test_a_stale_move_is_409_and_changes_nothing(
    cakehalla: Game, api_for: Callable[..., Api]
) -> None:
    api = api_for(user_at(cakehalla, state_of(cakehalla).turn))
    table = api.get(f"/games/{cakehalla.pk}").json()
    before = stored(cakehalla)
    stale = api.post(
        f"/games/{cakehalla.pk}/move",
        {"action": table["legal"][0], "version": table["version"] - 1},
    )
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    assert stored(cakehalla) == before


def test_a_move_out_of_turn_is_409_and_changes_nothing(
    cakehalla: Game, api_for: Callable[..., Api]
) -> None:
    state = state_of(cakehalla)
    other = user_at(cakehalla, 1 - state.turn)
    action = cakehalla.spec.engine.legal_actions(state, state.turn)[0]
    before = stored(cakehalla)
    refused = api_for(other).post(
        f"/games/{cakehalla.pk}/move", {"action": action, "version": cakehalla.version}
    )
    assert refused.status_code == 409 and "not your move" in refused.json()["error"]
    assert stored(cakehalla) == before


def test_an_illegal_move_is_400_in_the_engines_words(
    cakehalla: Game, api_for: Callable[..., Api]
) -> None:
    api = api_for(user_at(cakehalla, state_of(cakehalla).turn))
    before = stored(cakehalla)
    refused = api.post(
        f"/games/{cakehalla.pk}/move", {"action": {"type": "fly"}, "version": cakehalla.version}
    )
    assert refused.status_code == 400 and refused.json()["error"]
    assert stored(cakehalla) == before


def test_a_move_at_someone_elses_table_is_403(
    cakehalla: Game, outsider: User, api_for: Callable[..., Api]
) -> None:
    action = cakehalla.spec.engine.legal_actions(state_of(cakehalla), state_of(cakehalla).turn)[0]
    before = stored(cakehalla)
    refused = api_for(outsider).post(
        f"/games/{cakehalla.pk}/move", {"action": action, "version": cakehalla.version}
    )
    assert refused.status_code == 403 and refused.json()["error"] == "You do not sit at this game."
    assert stored(cakehalla) == before


def test_a_private_table_looks_missing_to_others(
    player: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    game = services.create_game(player, "cakehalla", 2, private=True)
    assert api_for(player).get(f"/games/{game.pk}").status_code == 200
    missing = api_for(outsider).get(f"/games/{game.pk}")
    assert missing.status_code == 404 and "could not find that table" in missing.json()["error"]
    assert api_for(outsider).get("/games/999999").status_code == 404


def test_a_table_kept_from_watchers_says_so(
    player: User, rival: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    game = services.create_game(player, "cakehalla", 2, watchers=Game.Watchers.PLAYERS)
    services.join(game, rival)
    services.start(game, player)
    refused = api_for(outsider).get(f"/games/{game.pk}")
    assert refused.status_code == 403 and refused.json()["error"]
    assert api_for(rival).get(f"/games/{game.pk}").status_code == 200


def test_moving_needs_the_play_scope(cakehalla: Game, api_for: Callable[..., Api]) -> None:
    api = api_for(user_at(cakehalla, state_of(cakehalla).turn), ["account:read"])
    table = api.get(f"/games/{cakehalla.pk}").json()
    before = stored(cakehalla)
    refused = api.post(
        f"/games/{cakehalla.pk}/move", {"action": table["legal"][0], "version": table["version"]}
    )
    assert refused.status_code == 403 and "games:play" in refused.json()["error"]
    assert api.post(f"/games/{cakehalla.pk}/resign").status_code == 403
    assert stored(cakehalla) == before


def test_resigning_hands_the_seat_to_a_bot(
    cakehalla: Game, player: User, api_for: Callable[..., Api]
) -> None:
    api = api_for(player)
    answer = api.post(f"/games/{cakehalla.pk}/resign")
    assert answer.status_code == 200, answer.content
    assert cakehalla.seats.get(user=player).resigned
    again = api.post(f"/games/{cakehalla.pk}/resign")
    assert again.status_code == 400 and "already resigned" in again.json()["error"]


def test_the_chat_is_read_and_written_through_the_services(
    cakehalla: Game, player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    said = api_for(player).post(f"/games/{cakehalla.pk}/chat", {"text": "  good   luck "})
    assert said.status_code == 200, said.content
    assert [line["text"] for line in said.json()["lines"]] == ["good luck"]
    heard = api_for(rival).get(f"/games/{cakehalla.pk}/chat").json()
    assert heard["open"] and [(x["name"], x["text"]) for x in heard["lines"]] == [
        ("alice", "good luck")
    ]


def test_spectators_may_not_read_or_write_a_players_chat(
    cakehalla: Game, outsider: User, api_for: Callable[..., Api]
) -> None:
    api = api_for(outsider)
    assert api.get(f"/games/{cakehalla.pk}/chat").status_code == 403
    assert api.post(f"/games/{cakehalla.pk}/chat", {"text": "hi"}).status_code == 403
    assert not ChatMessage.objects.exists()


def test_chat_needs_its_scopes(cakehalla: Game, player: User, api_for: Callable[..., Api]) -> None:
    reader = api_for(player, ["chat:read"])
    assert reader.get(f"/games/{cakehalla.pk}/chat").status_code == 200
    refused = reader.post(f"/games/{cakehalla.pk}/chat", {"text": "hi"})
    assert refused.status_code == 403 and "chat:write" in refused.json()["error"]
    assert api_for(player, ["chat:write"]).get(f"/games/{cakehalla.pk}/chat").status_code == 403
    assert not ChatMessage.objects.exists()


def test_chatting_too_fast_is_429_with_a_wait(
    cakehalla: Game, player: User, api_for: Callable[..., Api]
) -> None:
    api = api_for(player)
    answers: list[Any] = [
        api.post(f"/games/{cakehalla.pk}/chat", {"text": f"line {i}"}) for i in range(6)
    ]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert answers[-1]["Retry-After"] == "10"
    assert ChatMessage.objects.count() == 5
