"""Forged and broken posts: each is refused with a readable message and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Action, Game, Seat
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
HUGE = str(10**30)

Data = dict[str, Any] | Callable[["Tables"], dict[str, Any]]


@dataclass
class Tables:
    """The tables a case can post to: one open (host and a bot), one running, one over (played
    out only for the cases that post to it: a whole night is most of a case's cost)."""

    open: Game
    other: Game
    running: Game
    finish: Callable[[], Game]
    people: dict[str, User | None]

    @cached_property
    def over(self) -> Game:
        return self.finish()

    def bot_seat(self, game: Game) -> int:
        return game.seats.exclude(bot="").values_list("pk", flat=True)[0]

    def card(self, user_name: str) -> str:
        user = self.people[user_name]
        engine = self.running.spec.engine
        position = self.running.seats.get(user=user).position
        return engine.view(engine.load(self.running.snapshot), position)["batch"][0]["id"]


@dataclass
class Case:
    """One bad post: who sends it, where, what, and what must come back."""

    name: str
    who: str
    table: str
    url: str
    data: Data = field(default_factory=dict)
    status: tuple[int, ...] = (400,)
    says: str = ""
    htmx: bool = True


def keep(tables: Tables, **extra: Any) -> dict[str, Any]:
    """A legal keep for alice at the running table, with the fields overridden."""
    action = json.dumps({"type": "keep", "card": tables.card("alice")})
    return {"action": action, "version": tables.running.version, **extra}


CASES = [
    # The lobby side of an open table.
    Case(
        "remove another table's bot",
        "alice",
        "open",
        "bots/remove",
        lambda t: {"seat": t.bot_seat(t.other)},
        says="no such bot",
    ),
    Case(
        "remove a person as a bot",
        "alice",
        "open",
        "bots/remove",
        lambda t: {"seat": t.open.seats.get(bot="").pk},
        says="no such bot",
    ),
    Case(
        "remove seat that is not a number",
        "alice",
        "open",
        "bots/remove",
        {"seat": "two"},
        says="whole number",
    ),
    Case(
        "remove seat out of range",
        "alice",
        "open",
        "bots/remove",
        {"seat": HUGE},
        says="no such bot",
    ),
    Case("remove without a seat", "alice", "open", "bots/remove", says="Which bot"),
    Case(
        "a bot level that does not exist",
        "alice",
        "open",
        "bots/add",
        {"level": "chef"},
        says="no &#x27;chef&#x27; bot",
    ),
    Case(
        "another game's bot level", "alice", "open", "bots/add", {"level": "lookahead"}, says="bot"
    ),
    Case(
        "a rival adds a bot",
        "bob",
        "open",
        "bots/add",
        {"level": "random"},
        (403,),
        "Only the host",
    ),
    Case("an outsider starts", "carol", "open", "start", status=(403,), says="Only the host"),
    Case("an outsider cancels", "carol", "open", "cancel", status=(403,), says="Only the host"),
    Case("the host joins again", "alice", "open", "join", says="already sit"),
    Case("the host leaves", "alice", "open", "leave", says="host cannot leave"),
    Case("an outsider leaves", "carol", "open", "leave", says="do not sit"),
    Case(
        "a play before the start",
        "alice",
        "open",
        "play",
        {"action": '{"type": "keep", "card": "bun-01"}', "version": 1},
        says="not started",
    ),
    # Forms of a running game.
    Case(
        "garbage JSON",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action="{not json"),
        says="not an action",
    ),
    Case(
        "a JSON list",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action="[1, 2]"),
        says="not an action",
    ),
    Case(
        "a JSON string",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action='"keep"'),
        says="not an action",
    ),
    Case(
        "JSON null",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action="null"),
        says="not an action",
    ),
    Case(
        "no action at all",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action=""),
        says="not an action",
    ),
    Case(
        "deeply nested JSON",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action="[" * 100_000),
        says="too long",
    ),
    Case(
        "deep nesting under the limit",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action='{"a":' + "[" * 1500),
        says="not an action",
    ),
    Case(
        "a long action",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action=json.dumps({"type": "keep", "card": "x" * 50_000})),
        says="too long",
    ),
    Case(
        "a payload over the upload limit",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action="x" * 3_000_000),
    ),
    Case(
        "an unknown action type",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action='{"type": "bake"}'),
    ),
    Case(
        "a rival's card",
        "alice",
        "running",
        "play",
        lambda t: keep(t, action=json.dumps({"type": "keep", "card": t.card("bob")})),
    ),
    Case(
        "a version that is not a number",
        "alice",
        "running",
        "play",
        lambda t: keep(t, version="latest"),
        says="whole number",
    ),
    Case(
        "a play without a version",
        "alice",
        "running",
        "play",
        lambda t: {"action": keep(t)["action"]},
        says="reload",
    ),
    Case(
        "a fractional version",
        "alice",
        "running",
        "play",
        lambda t: keep(t, version="1.5"),
        says="whole number",
    ),
    Case(
        "an old version",
        "alice",
        "running",
        "play",
        lambda t: keep(t, version=0),
        (409,),
        "moved on",
    ),
    Case("a play by an outsider", "carol", "running", "play", keep, (403,), "do not sit"),
    Case("a play by nobody logged in", "anonymous", "running", "play", keep, (302,)),
    Case(
        "results seen not a number",
        "alice",
        "running",
        "results/close",
        {"seen": "all"},
        says="whole number",
    ),
    Case(
        "results seen out of range",
        "alice",
        "running",
        "results/close",
        {"seen": HUGE},
        says="not out yet",
    ),
    Case(
        "results not out yet", "alice", "running", "results/close", {"seen": 2}, says="not out yet"
    ),
    Case(
        "results closed by an outsider",
        "carol",
        "running",
        "results/close",
        {"seen": 0},
        (403,),
        "do not sit",
    ),
    Case("a second start", "alice", "running", "start", says="already started"),
    Case("a cancel after the start", "alice", "running", "cancel", says="already started"),
    Case("a join after the start", "carol", "running", "join", says="already started"),
    # A finished game.
    Case(
        "a play after the end",
        "alice",
        "over",
        "play",
        {"action": '{"type": "keep", "card": "bun-01"}', "version": 999},
        (409,),
        "is over",
    ),
    # Without HTMX: a small page with the reason, escaped.
    Case(
        "a forged level without HTMX",
        "alice",
        "open",
        "bots/add",
        {"level": "<script>alert(1)</script>"},
        says="&lt;script&gt;",
        htmx=False,
    ),
    Case(
        "a play after the end without HTMX",
        "alice",
        "over",
        "play",
        {"action": "{}", "version": 1},
        (409,),
        "is over",
        htmx=False,
    ),
]


def fingerprint() -> tuple[Any, ...]:
    """Everything a refused post must leave as it was."""
    games = list(
        Game.objects.order_by("pk").values_list("pk", "status", "version", "moves", "snapshot")
    )
    seats = list(
        Seat.objects.order_by("pk").values_list("pk", "game_id", "user_id", "results_seen")
    )
    return games, seats, Action.objects.count()


@pytest.fixture
def tables(player: User, rival: User, outsider: User) -> Tables:
    open_game = services.create_game(player, "midnight-bakery", 3)
    services.add_bot(open_game, player, "random")
    other = services.create_game(rival, "midnight-bakery", 3)
    services.add_bot(other, rival, "random")
    running = services.create_game(player, "midnight-bakery", 2)
    services.join(running, rival)
    services.start(running, player)
    for game in (open_game, other, running):
        game.refresh_from_db()
    people = {"alice": player, "bob": rival, "carol": outsider, "anonymous": None}
    return Tables(open_game, other, running, lambda: finished_game([player, rival]), people)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_post_is_refused_with_a_message_and_changes_nothing(
    tables: Tables, case: Case
) -> None:
    game = getattr(tables, case.table)
    data = case.data(tables) if callable(case.data) else case.data
    before = fingerprint()
    response = client_for(tables.people[case.who]).post(
        f"/games/{game.pk}/{case.url}/", data, headers=HTMX if case.htmx else {}
    )
    body = response.content.decode()
    assert response.status_code in case.status, body[:300]
    assert case.says in body
    if case.status != (302,):
        assert 'role="alert"' in body
    assert "<script>alert" not in body
    assert fingerprint() == before


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/games/987654/join/", {}),
        (f"/games/{HUGE}/play/", {"action": "{}"}),
        ("/games/987654/bots/remove/", {"seat": 1}),
        ("/games/987654/results/close/", {"seen": 1}),
    ],
)
def test_a_post_to_a_missing_table_is_404(tables: Tables, url: str, data: dict) -> None:
    before = fingerprint()
    assert client_for(tables.people["alice"]).post(url, data, headers=HTMX).status_code == 404
    assert fingerprint() == before


def test_a_private_table_looks_missing_to_a_forged_join(tables: Tables) -> None:
    hidden = services.create_game(tables.people["bob"], "midnight-bakery", 3, private=True)  # type: ignore[arg-type]
    before = fingerprint()
    response = client_for(tables.people["carol"]).post(f"/games/{hidden.pk}/join/", headers=HTMX)
    assert response.status_code == 404
    assert fingerprint() == before


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "chess", "capacity": 2},
        {"kind": "midnight-bakery", "capacity": "many"},
        {"kind": "midnight-bakery", "capacity": 9},
        {"kind": "midnight-bakery", "capacity": 1},
        {"kind": "midnight-bakery", "capacity": -3},
        {"kind": "midnight-bakery", "capacity": HUGE},
        {"kind": "cakehalla", "capacity": 5},
        {"kind": "midnight-bakery", "capacity": 3, "passing": "sideways"},
        {},
    ],
)
def test_a_forged_new_table_form_is_400_and_creates_nothing(
    tables: Tables, data: dict[str, Any]
) -> None:
    before = fingerprint()
    response = client_for(tables.people["alice"]).post("/games/new/", data)
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert fingerprint() == before


def test_unknown_options_are_dropped_not_stored(tables: Tables) -> None:
    response = client_for(tables.people["alice"]).post(
        "/games/new/", {"kind": "midnight-bakery", "capacity": 3, "oven": "hot"}
    )
    assert response.status_code == 302
    assert Game.objects.order_by("-pk").first().options == {"passing": "alternate"}  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["chess", "", "<b>x</b>"])
def test_a_quick_game_of_an_unknown_kind_is_400_and_creates_nothing(
    tables: Tables, kind: str
) -> None:
    before = fingerprint()
    response = client_for(tables.people["alice"]).post("/games/quick/", {"kind": kind})
    assert response.status_code == 400
    assert "not on offer" in response.content.decode()
    assert fingerprint() == before


def test_a_double_submitted_pick_is_refused_the_second_time(tables: Tables) -> None:
    client = client_for(tables.people["alice"])
    url = f"/games/{tables.running.pk}/play/"
    data = {**keep(tables), "moment": "1.1"}
    assert client.post(url, data, headers=HTMX).status_code == 200
    before = fingerprint()
    second = client.post(url, data, headers=HTMX)
    assert second.status_code in (400, 409)
    assert 'role="alert"' in second.content.decode()
    assert fingerprint() == before


@pytest.mark.parametrize(
    "url",
    [
        "/games/history/?page=abc&game=chess&player=%00",
        f"/games/history/?page={HUGE}",
        "/leaderboards/midnight-bakery/?page=-1",
        f"/leaderboards/midnight-bakery/?page={HUGE}",
        "/leaderboards/chess/",
        "/u/nobody-at-all/",
        "/u/bad%00name/",
        "/games/history/?player=alice%00",
    ],
)
def test_odd_query_strings_never_500(tables: Tables, url: str) -> None:
    assert Client().get(url).status_code in (200, 404)


@pytest.mark.parametrize("move", ["abc", "-5", HUGE, "1e9"])
def test_a_replay_at_an_odd_move_answers_a_frame(tables: Tables, move: str) -> None:
    response = Client().get(f"/games/{tables.over.pk}/replay/", {"move": move})
    assert response.status_code == 200


@pytest.mark.parametrize("version", ["abc", HUGE, "-1"])
def test_the_polling_board_takes_any_version(tables: Tables, version: str) -> None:
    response = Client().get(f"/games/{tables.running.pk}/board/", {"version": version})
    assert response.status_code == 200
