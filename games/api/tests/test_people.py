"""The account, people, their games as NDJSON, and leaderboards through the API."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from accounts.models import Rating, User
from games.api.tests.conftest import Api
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


def lines(answer: object) -> list[dict[str, object]]:
    """An NDJSON answer, read whole."""
    assert answer.status_code == 200  # type: ignore[attr-defined]
    assert answer["Content-Type"] == "application/x-ndjson"  # type: ignore[index]
    text = b"".join(answer.streaming_content).decode()  # type: ignore[attr-defined]
    return [json.loads(line) for line in text.splitlines()]


def test_your_games_are_the_sites_export(player: User, api_for: Callable[..., Api]) -> None:
    game = finished_game([player], "cakehalla")
    [record] = lines(api_for(player).get("/account/games"))
    assert record["id"] == game.pk
    assert lines(api_for(player).get("/account/games?kind=midnight-bakery")) == []
    assert api_for(player).get("/account/games?kind=chess").status_code == 404


def test_a_private_game_is_in_its_players_export_only(
    player: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    finished_game([player], "cakehalla", private=True)
    assert len(lines(api_for(player).get("/people/alice/games"))) == 1
    assert lines(api_for(outsider).get("/people/alice/games")) == []


def test_a_profile_has_the_ratings_per_game(
    player: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    finished_game([player], "cakehalla")
    body = api_for(outsider, ["chat:read"]).get("/people/alice").json()
    assert body["name"] == "alice" and body["bot"] is False
    assert [(r["game"], r["games"], r["provisional"]) for r in body["ratings"]] == [
        ("cakehalla", 1, True)
    ]
    assert body["ratings"][0]["rating"] == Rating.objects.get(user=player).rating


def test_the_account_holds_the_email_state_but_a_profile_does_not(
    player: User, api_for: Callable[..., Api]
) -> None:
    assert "email_verified" in api_for(player).get("/account").json()
    assert "email_verified" not in api_for(player).get("/people/alice").json()


def test_a_leaderboard_ranks_people_and_marks_bots(
    make_user: Callable[[str], User], api_for: Callable[..., Api]
) -> None:
    people = [make_user(f"baker{i}") for i in range(2)]
    for _ in range(5):
        finished_game(people, "cakehalla", bots=0)
    board = api_for(people[0]).get("/leaderboards/cakehalla").json()
    assert board["game"] == "cakehalla" and board["page"] == 1
    assert sorted(line["name"] for line in board["lines"]) == ["baker0", "baker1"]
    assert board["lines"][0]["rank"] == 1
    assert not any(line["bot"] for line in board["lines"])


def test_your_tables_put_your_move_first(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    waiting = two_baker_table(player, rival)
    first = user_at(waiting, state_of(waiting).turn)
    other = rival if first == player else player
    tables = api_for(first).get("/account/tables").json()
    assert [(t["id"], t["your_move"]) for t in tables] == [(waiting.pk, True)]
    theirs = api_for(other).get("/account/tables").json()
    assert theirs[0]["your_move"] is False and theirs[0]["to_move"] == [first.username]
    assert api_for(player, ["chat:read"]).get("/account/tables").status_code == 403
