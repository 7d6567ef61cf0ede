"""Bad input gets words and changes nothing: malformed JSON, wrong types, huge bodies, unknown
ids, a stream of refusals that never turns into a 500."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.api.tests.conftest import Api
from games.models import Action, Game
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(player: User, rival: User, api_for: Callable[..., Api]) -> tuple[Game, Api]:
    """A running Cakehalla table and the API client of the baker to move."""
    game = two_baker_table(player, rival)
    return game, api_for(user_at(game, state_of(game).turn))


def untouched(game: Game, version: int) -> bool:
    game.refresh_from_db()
    return game.version == version and not Action.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("{not json", "not the JSON"),
        ("[]", "“action” is missing"),
        ('{"action": {"type": "take"}}', "“version” is missing"),
        ('{"action": [1, 2], "version": 1}', "“action”"),
        ('{"action": {"type": "take"}, "version": "soon"}', "“version”"),
        ('{"action": "take", "version": 1}', "“action”"),
        ("", "not the JSON"),
    ],
)
def test_a_malformed_move_is_400_in_words(seated: tuple[Game, Api], raw: str, words: str) -> None:
    game, api = seated
    version = game.version
    answer = api.post(f"/games/{game.pk}/move", raw=raw)
    assert answer.status_code == 400, answer.content
    assert words in answer.json()["error"]
    assert untouched(game, version)


def test_a_huge_body_is_413_and_never_read(seated: tuple[Game, Api], settings: object) -> None:
    game, api = seated
    version = game.version
    padding = "x" * (settings.API_BODY_MAX + 1)  # type: ignore[attr-defined]
    answer = api.post(f"/games/{game.pk}/chat", {"text": padding})
    assert answer.status_code == 413 and "too large" in answer.json()["error"]
    assert untouched(game, version)


def test_a_long_action_is_refused_as_the_page_refuses_it(seated: tuple[Game, Api]) -> None:
    game, api = seated
    version = game.version
    action = {"type": "take", "junk": "y" * 3000}
    answer = api.post(f"/games/{game.pk}/move", {"action": action, "version": version})
    assert answer.status_code == 400 and "too long" in answer.json()["error"]
    assert untouched(game, version)


@pytest.mark.parametrize(
    "path", ["/games/0", "/games/99999999", "/games/-1", "/games/abc", "/games/1e9/chat"]
)
def test_unknown_tables_are_404_or_400_in_words(
    player: User, api_for: Callable[..., Api], path: str
) -> None:
    answer = api_for(player).get(path)
    assert answer.status_code in (400, 404)
    assert answer.json()["error"]


def test_unknown_people_and_games_are_404(player: User, api_for: Callable[..., Api]) -> None:
    api = api_for(player)
    assert "Nobody here goes by that name" in api.get("/people/nobody").json()["error"]
    assert api.get("/people/nobody/games").status_code == 404
    assert api.get("/leaderboards/chess").status_code == 404
    assert api.get("/people/a%00b").status_code == 404


@pytest.mark.parametrize("query", ["page=abc", "page=-4", "page=99999", "bots=perhaps"])
def test_odd_leaderboard_queries_never_500(
    player: User, api_for: Callable[..., Api], query: str
) -> None:
    answer = api_for(player).get(f"/leaderboards/cakehalla?{query}")
    assert answer.status_code in (200, 400)
    assert "error" in answer.json() or "lines" in answer.json()


def test_a_hundred_refusals_in_a_row_stay_refusals(seated: tuple[Game, Api]) -> None:
    game, api = seated
    version = game.version
    codes = {api.post(f"/games/{game.pk}/move", raw="{").status_code for _ in range(100)}
    assert codes == {400}
    assert untouched(game, version)


def test_a_method_an_address_does_not_take_is_405_in_words(
    player: User, api_for: Callable[..., Api]
) -> None:
    api = api_for(player)
    answer = api.client.delete("/api/account", headers=api.headers)
    assert answer.status_code == 405 and answer["Allow"] == "GET"
    assert answer.json()["error"] == "This address takes GET only."


def test_a_token_needs_no_csrf_cookie(seated: tuple[Game, Api]) -> None:
    """The API is for programs: the token is the proof, so Django's CSRF check stays away."""
    game, api = seated
    strict = Client(enforce_csrf_checks=True)
    answer = strict.post(
        f"/api/games/{game.pk}/chat",
        json.dumps({"text": "hello"}),
        content_type="application/json",
        headers=api.headers,
    )
    assert answer.status_code == 200, answer.content


def test_a_nul_byte_in_a_name_finds_nobody(
    player: User, make_user: Callable[[str], User], api_for: Callable[..., Api]
) -> None:
    make_user("ab")
    assert api_for(player).get("/people/a%00b").status_code == 404


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/account/games?knd=cakehalla", "no query parameter “knd”: it takes “kind”."),
        ("/tables/open?game=cakehalla&seats=2", "no query parameter “seats”: it takes “game”."),
        ("/account?kind=cakehalla", "no query parameter “kind”: it takes none."),
        ("/leaderboards/cakehalla?bots=1&pages=2", "it takes “bots”, “page”."),
    ],
)
def test_a_query_parameter_an_operation_does_not_take_is_400_in_words(
    player: User, api_for: Callable[..., Api], path: str, words: str
) -> None:
    answer = api_for(player).get(path)
    assert answer.status_code == 400
    assert words in answer.json()["error"]


def test_a_move_with_an_unknown_query_parameter_changes_nothing(seated: tuple[Game, Api]) -> None:
    game, api = seated
    version = game.version
    body = {"action": {"type": "take"}, "version": version}
    answer = api.post(f"/games/{game.pk}/move?dry_run=1", body)
    assert answer.status_code == 400 and "“dry_run”" in answer.json()["error"]
    assert untouched(game, version)


def test_declared_query_parameters_still_pass(player: User, api_for: Callable[..., Api]) -> None:
    api = api_for(player)
    assert api.get("/account/games?kind=cakehalla").status_code == 200
    assert api.get("/tables/open?game=cakehalla").status_code == 200
    assert api.get("/leaderboards/cakehalla?page=1&bots=true").status_code == 200
