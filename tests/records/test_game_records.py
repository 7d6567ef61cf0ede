"""A game's record: the setup and rules version stored at the start, backfilled for old games,
replays that cannot be rebuilt, exports, verify_export and a person's games as NDJSON."""

from __future__ import annotations

import importlib
import io
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.apps import apps
from django.core.management import CommandError, call_command
from django.http import StreamingHttpResponse
from django.test import AsyncClient
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Action, Game, Seat
from games.records import archive
from games.records.archive import placings
from games.web import history as web_history
from games.web.replay import Replay
from tests.conftest import client_for
from tests.golden.games import golden_games
from tests.support.finished_games import finished_game, running_game

pytestmark = pytest.mark.django_db

GOLDEN = {f"{g['game']}-{g['players']}p-{g['seed']}": g for g in golden_games()}
backfill = importlib.import_module("games.migrations.0005_backfill_setups").backfill


def stored_golden(golden: dict[str, Any], make_user: Callable[[str], User]) -> Game:
    """A golden game stored as the site stores a finished one: seats, results, Action rows."""
    people = [make_user(f"baker{i}") for i in range(golden["players"])]
    spec_engine = Game(kind=golden["game"]).spec.engine
    state = spec_engine.new_game(
        golden["players"], seed=golden["seed"], options=golden["options"], setup=golden["setup"]
    )
    for seat, action in golden["actions"]:
        state = spec_engine.apply_action(state, seat, action)
    result: Mapping[str, Any] = spec_engine.result(state)
    places, winners = placings(list(result["scores"]), set(result["winners"]), set())
    now = timezone.now()
    game = Game.objects.create(
        kind=golden["game"],
        host=people[0],
        status=Game.Status.OVER,
        capacity=golden["players"],
        options=golden["options"],
        seed=golden["seed"],
        setup=golden["setup"],
        rules_version=golden["rules_version"],
        snapshot=spec_engine.dump(state),
        moves=len(golden["actions"]),
        started_at=now - timedelta(minutes=30),
        finished_at=now,
    )
    for position, user in enumerate(people):
        Seat.objects.create(
            game=game,
            user=user,
            position=position,
            score=result["scores"][position],
            place=places[position],
            winner=position in winners,
        )
    Action.objects.bulk_create(
        Action(game=game, seq=n, seat=seat, payload=action, user=people[seat])
        for n, (seat, action) in enumerate(golden["actions"], start=1)
    )
    return game


def export_of(game: Game, user: User | None = None) -> dict[str, Any]:
    response = client_for(user).get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200, response.content
    return json.loads(response.content)


def streamed_lines(user: User | None, username: str) -> list[bytes]:
    """The lines of a person's games.ndjson as this user gets them."""
    response = client_for(user).get(f"/u/{username}/games.ndjson")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    return b"".join(response.streaming_content).splitlines()  # type: ignore[attr-defined]


def verify_file(path: Path) -> str:
    """verify_export's output on one file (CommandError if any game differs)."""
    out = io.StringIO()
    call_command("verify_export", str(path), stdout=out, stderr=out)
    return out.getvalue()


# --- the start stores the deal and the rules ------------------------------------------------


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_the_start_stores_what_was_dealt_and_the_rules_version(
    kind: str, player: User, rival: User
) -> None:
    game = running_game([player, rival], kind=kind)
    engine = game.spec.engine
    players = game.seats.exclude(position=None).count()
    assert game.rules_version == engine.RULES_VERSION
    assert game.setup == engine.deal(players, seed=game.seed, options=dict(game.options))
    rebuilt = archive.first_state(game)
    moves = game.actions.order_by("seq").values_list("seat", "payload")
    assert engine.dump(archive.last_state(engine, rebuilt, moves)) == game.snapshot


def test_a_running_game_is_not_exported_and_its_deal_never_leaves(
    player: User, rival: User
) -> None:
    game = running_game([player, rival])
    for user in (player, rival, None):
        response = client_for(user).get(f"/games/{game.pk}/export.json")
        assert response.status_code == 404
        body = response.content.decode()
        assert "Only finished games are exported" in body
        assert game.setup is not None
        assert not any(card in body for card in game.setup["deck"])
        assert str(game.seed) not in body
    assert streamed_lines(rival, player.username) == []


def test_a_cancelled_table_is_not_exported(player: User) -> None:
    game = services.create_game(player, "midnight-bakery", 3)
    services.cancel(game, player)
    assert client_for(player).get(f"/games/{game.pk}/export.json").status_code == 404


# --- old games: the backfill and the replay from the stored setup ---------------------------


@pytest.mark.parametrize("name", [n for n, g in GOLDEN.items() if g["legacy"]])
def test_the_backfill_gives_old_games_the_deal_they_were_played_with(
    name: str, make_user: Callable[[str], User]
) -> None:
    golden = GOLDEN[name]
    game = stored_golden(golden, make_user)
    Game.objects.filter(pk=game.pk).update(setup=None, rules_version=None)
    backfill(apps, None)
    game.refresh_from_db()
    assert game.setup == golden["setup"]
    assert game.rules_version == 1
    replay = Replay.of(game)
    assert replay.total == len(golden["actions"])
    assert game.spec.engine.result(replay.state(replay.total)) == golden["result"]
    response = client_for(None).get(f"/games/{game.pk}/replay/?move={replay.total}")
    assert response.status_code == 200


def test_the_backfill_leaves_open_games_and_stored_setups_alone(player: User, rival: User) -> None:
    open_game = services.create_game(player, "cakehalla", 2)
    started = running_game([player, rival], kind="cakehalla")
    before = started.setup
    backfill(apps, None)
    open_game.refresh_from_db()
    started.refresh_from_db()
    assert open_game.setup is None and open_game.rules_version is None
    assert started.setup == before


# --- a replay that cannot be rebuilt --------------------------------------------------------


def broken(game: Game, how: str) -> None:
    """Break a stored game the way time could: other rules, a refused move, another result."""
    if how == "rules":
        Game.objects.filter(pk=game.pk).update(rules_version=0)
    elif how == "move":
        action = game.actions.get(seq=3)
        action.payload = {"type": "keep", "card": "eclair-01"}
        action.save()
    elif how == "deal":
        Game.objects.filter(pk=game.pk).update(setup={"deck": "croissant"})
    elif how == "end":
        game.actions.order_by("seq").last().delete()  # type: ignore[union-attr]
    elif how == "score":
        seat = game.seats.get(position=0)
        seat.score = (seat.score or 0) + 1
        seat.save()
    game.refresh_from_db()


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("rules", "played under rules version 0; today&#x27;s rules are version 1"),
        ("move", "refuse move 3"),
        ("deal", "cannot deal this game again"),
        ("end", "do not bring the game to its end"),
        ("score", "stored score"),
    ],
)
def test_a_replay_that_cannot_be_rebuilt_says_so_and_is_logged(
    how: str,
    said: str,
    make_user: Callable[[str], User],
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = stored_golden(GOLDEN["midnight-bakery-2p-101"], make_user)
    assert client_for(None).get(f"/games/{game.pk}/replay/").status_code == 200
    broken(game, how)
    with caplog.at_level(logging.WARNING, logger="games.web.replay"):
        for move in ("", "?move=5"):
            response = client_for(None).get(f"/games/{game.pk}/replay/{move}")
            assert response.status_code == 404
            body = response.content.decode()
            assert "This replay is not available." in body
            assert said in body
            assert "Until then" not in body
    assert any(f"game {game.pk} cannot be rebuilt" in r.getMessage() for r in caplog.records)


def test_verify_export_fails_with_a_message_when_a_stored_result_differs(
    make_user: Callable[[str], User], tmp_path: Path
) -> None:
    game = stored_golden(GOLDEN["cakehalla-3p-505"], make_user)
    data = export_of(game)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data))
    assert "All 1 games replay to their stored results." in verify_file(good)
    data["seats"][1]["winner"] = not data["seats"][1]["winner"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="1 of 1 games differ"):
        verify_file(bad)
    data = export_of(game)
    data["actions"] = data["actions"][:-1]
    bad.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="1 of 1 games differ"):
        verify_file(bad)
    data["rules_version"] = 2
    assert archive.verify(data) == [
        "This game was played under rules version 2; today's rules are version 1."
    ]
    assert archive.verify({"game": "cakehalla"})[0].startswith("This is not a Bakehouse")


# --- export, verify, NDJSON -----------------------------------------------------------------


def test_a_finished_games_export_holds_everything_to_play_it_again(
    player: User, rival: User
) -> None:
    game = finished_game([player, rival], bots=1)
    data = export_of(game)
    assert data["format"] == archive.EXPORT_FORMAT
    assert data["id"] == game.pk and data["game"] == "midnight-bakery"
    assert data["rules_version"] == game.rules_version == 1
    assert data["options"] == {"passing": "alternate"}
    assert data["seed"] == game.seed and data["setup"] == game.setup
    assert [s["position"] for s in data["seats"]] == [0, 1, 2]
    assert {s["player"] for s in data["seats"]} >= {player.username, rival.username}
    assert [a["seq"] for a in data["actions"]] == list(range(1, game.moves + 1))
    assert archive.verify(data) == []


def test_a_private_games_export_is_for_its_seats_only(
    player: User, rival: User, outsider: User
) -> None:
    game = finished_game([player, rival], bots=0, private=True)
    assert client_for(rival).get(f"/games/{game.pk}/export.json").status_code == 200
    for user in (outsider, None):
        assert client_for(user).get(f"/games/{game.pk}/export.json").status_code == 404
    assert len(streamed_lines(player, player.username)) == 1
    assert streamed_lines(outsider, player.username) == []


@pytest.mark.parametrize(("kind", "players"), [("midnight-bakery", 3), ("cakehalla", 2)])
def test_every_simulated_game_exports_and_replays_to_its_stored_result(
    kind: str, players: int, tmp_path: Path
) -> None:
    call_command(
        "simulate", game=kind, players=players, games=3, bots="greedy,random", stdout=io.StringIO()
    )
    finished = Game.objects.filter(kind=kind, status=Game.Status.OVER)
    assert finished.count() == 3
    for game in finished:
        path = tmp_path / f"{game.pk}.json"
        path.write_text(json.dumps(export_of(game)))
        assert f"game {game.pk}: replays to its stored result." in verify_file(path)
    bot = User.objects.get(username=finished[0].seats.get(position=0).user.username)
    lines = [line.decode() for line in streamed_lines(None, bot.username)]
    mine = Seat.objects.filter(user=bot, game__status=Game.Status.OVER).count()
    assert len(lines) == mine >= 1
    assert all(archive.verify(json.loads(line)) == [] for line in lines)
    ndjson = tmp_path / "games.ndjson"
    ndjson.write_text("\n".join(lines) + "\n")
    assert f"All {mine} games replay to their stored results." in verify_file(ndjson)


def test_under_asgi_a_persons_games_stream_from_an_async_iterator_chunk_by_chunk(
    player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):
        finished_game([player, rival], bots=0)
    monkeypatch.setattr(web_history, "EXPORT_CHUNK", 2)
    events: list[str] = []
    read_chunk = web_history.export_chunk

    def export_chunk(ids: Sequence[int]) -> str:
        events.append(f"read {len(ids)}")
        return read_chunk(ids)

    monkeypatch.setattr(web_history, "export_chunk", export_chunk)
    client = AsyncClient()
    client.force_login(player)
    response = async_to_sync(client.get)(f"/u/{player.username}/games.ndjson")
    assert isinstance(response, StreamingHttpResponse)
    assert response.status_code == 200 and response.is_async
    assert events == []  # no game is read before the body is sent

    async def body() -> bytes:
        out = b""
        async for chunk in response.streaming_content:
            events.append("sent")
            out += chunk
        return out

    lines = async_to_sync(body)().splitlines()
    assert events == ["read 2", "sent", "read 1", "sent"]
    assert lines == streamed_lines(player, player.username)


def test_an_unknown_persons_games_are_404(player: User) -> None:
    assert client_for(player).get("/u/nobody-here/games.ndjson").status_code == 404
