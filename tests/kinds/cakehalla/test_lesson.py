"""Cakehalla's guided first game (issue 31, point 2): a game started part way, six planned moves.

Cakehalla's moves take several taps (ingredients then Take; a card's menu then Buy), so a step
points at each tap in turn. Here every tap a step points at is made on the learner's own board
(parsed, and changed as static/cakehalla/board.js changes it): each control must be on the board
once, each tap must count as made, and the move the taps build must be legal now.
"""

from __future__ import annotations

import json
from typing import Any, cast

import lxml.html
import pytest

from accounts.models import User
from games import catalog, services
from games.engines import cakehalla as engine
from games.engines.cakehalla.cards import CUSTOMERS
from games.engines.cakehalla.state import State
from games.models import Game
from games.tutorial import services as tutorial
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

KIND = "cakehalla"
engine_customers = {c.id: c.name for c in CUSTOMERS}


def board_of(user: User, game: Game) -> Any:
    """The table page as the learner gets it, parsed."""
    response = client_for(user).get(game.get_absolute_url())
    assert response.status_code == 200
    return lxml.html.fromstring(response.content.decode())


def snapshot(game: Game) -> dict[str, Any]:
    """The table's stored state, as it stands now."""
    game.refresh_from_db()
    assert game.snapshot is not None
    return dict(game.snapshot)


def position_of(game: Game, user: User) -> int:
    position = game.seats.get(user=user).position
    assert position is not None
    return position


def legal_now(game: Game, user: User) -> list[dict[str, Any]]:
    state = engine.load(snapshot(game))
    return [dict(a) for a in engine.legal_actions(state, position_of(game, user))]


def next_picks(picks: list[str], ing: str, can_two: bool) -> list[str]:
    """board.js's nextPicks: a new kind adds one, a second tap makes two of it (pile allowing)."""
    count = picks.count(ing)
    if count == 2:
        return []
    if count == 1:
        return [ing, ing] if can_two else [p for p in picks if p != ing]
    distinct = list(dict.fromkeys(picks))
    return distinct if len(distinct) >= 3 else [*distinct, ing]


def one(board: Any, selector: str) -> Any:
    found = board.cssselect(selector)
    assert len(found) == 1, f"{selector} matches {len(found)} controls on the board"
    return found[0]


def tap(board: Any, control: Any, picks: list[str]) -> list[str]:
    """One tap on the parsed board as board.js answers it (picks, Clear, a menu); the picks."""
    if control.get("data-ing") is not None:
        assert control.get("aria-disabled") is None, "a refused ingredient"
        picks = next_picks(picks, control.get("data-ing"), bool(control.get("data-two")))
    elif control.get("data-clear") is not None:
        picks = []
    elif control.tag == "summary":
        control.getparent().set("open", "")
    for token in board.cssselect("#market-form [data-ing]"):
        token.set("data-picked", str(picks.count(token.get("data-ing"))))
    return picks


def sent(board: Any, control: Any, picks: list[str]) -> dict[str, Any]:
    """The move a step's last tap sends."""
    if control.get("data-take") is not None:
        takes = json.loads(one(board, "#market-form").get("data-takes"))
        assert sorted(picks) in [sorted(t) for t in takes], f"Take stays disabled: {picks}"
        return {"type": "take", "ingredients": picks}
    assert control.tag == "button" and control.get("name") == "action", control.attrib
    assert control.get("aria-disabled") is None, "a refused button"
    menu = next(control.iterancestors("details"), None)
    assert menu is None or menu.get("open") is not None, "a button in a closed menu"
    return dict(json.loads(control.get("value")))


def tap_through(board: Any, presses: list[list[str]], picks: list[str] | None = None) -> Any:
    """Make the taps the pointer names, as /static/js/tutorial.js names them (the first whose
    "done" does not match yet), on the parsed board; the move they send."""
    picks = list(picks or [])
    assert presses and not presses[-1][1], "the last tap sends the move"
    for _ in range(3 * len(presses)):
        target, done = next(p for p in presses if not (p[1] and board.cssselect(p[1])))
        control = one(board, target)
        if not done:
            return sent(board, control, picks)
        picks = tap(board, control, picks)
        assert board.cssselect(done), f"{done} is not made by tapping {target}"
    raise AssertionError("the taps send no move")


def follow(user: User, game: Game, steps: int = 60) -> list[str]:
    """Make every tap each step points at, checked against the board and the rules, until the game
    ends (or for a number of steps); the steps' sentences in order."""
    said = []
    for _ in range(steps):
        game.refresh_from_db()
        page = board_of(user, game)
        panel = page.get_element_by_id("tutorial-step")
        said.append(panel.text_content())
        presses = json.loads(panel.get("data-presses"))
        if game.status == Game.Status.OVER:
            assert [p[0] for p in presses] == [panel.get("data-target")]
            assert page.cssselect(presses[0][0]), "the scoring is not on the board"
            return said
        assert presses, "a running tutorial whose move it is points at a control"
        action = tap_through(page.get_element_by_id("board"), presses)
        assert any(tutorial.same_move(action, a) for a in legal_now(game, user)), action
        services.play(game, user, action, None)
    return said


def mine(game: Game, user: User) -> list[dict[str, Any]]:
    moves = game.actions.filter(seat=position_of(game, user)).order_by("seq")
    return [dict(a.payload) for a in moves]


def test_following_every_tap_wins_in_six_moves_that_show_each_kind_of_turn(player: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    said = follow(player, game)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    lesson = catalog.get(KIND).lesson
    assert lesson is not None
    assert mine(game, player) == [dict(s.action) for s in lesson.script]
    assert "A game joined part way" in said[0]
    assert "Three different kinds" in said[0] and "Two of one kind" in said[1]
    assert "gives you a Saffron" in said[2] and "a customer visits" in said[3]
    assert "fewer cards" in said[-1]  # the tie-break, said with the scoring
    me = snapshot(game)["bakers"][position_of(game, player)]
    assert (me["points"], me["customers"], me["reserved"]) == (15, ["pair-2"], [])
    assert game.seats.get(user=player).winner
    assert "Tutorial done" in client_for(player).get(f"/u/{player.username}/").content.decode()


def test_the_step_that_meets_a_customer_names_it(player: User) -> None:
    """Which customer the learner meets is read off the engine (the customer joins their
    bakery with the move); the step that asked for that move names it."""
    game = tutorial.start_tutorial(player, KIND)
    me = position_of(game, player)
    met: list[tuple[str, list[str]]] = []
    while game.status == Game.Status.RUNNING:
        before = snapshot(game)["bakers"][me]["customers"]
        panel = board_of(player, game).get_element_by_id("tutorial-step")
        board = board_of(player, game).get_element_by_id("board")
        action = tap_through(board, json.loads(panel.get("data-presses")))
        services.play(game, player, action, None)
        after = snapshot(game)["bakers"][me]["customers"]
        if after != before:
            met.append((panel.text_content(), [c for c in after if c not in before]))
    assert met, "the learner meets no customer"
    for said, customers in met:
        for customer in customers:
            name = engine_customers[customer]
            assert name.lower() in said.lower(), f"{name} is not named in {said!r}"


def test_the_tutorial_replays_from_its_stored_setup(player: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    follow(player, game)
    assert client_for(player).get(f"/games/{game.pk}/replay/").status_code == 200
    assert game.setup is not None and game.setup["bakers"]  # started part way
    stored = snapshot(game)
    assert engine.dump(cast(State, services.replay(game))) == stored


def test_a_learner_who_leaves_the_plan_gets_the_strongest_bots_steps_for_the_board(
    player: User,
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    other = {"type": "take", "ingredients": ["matcha", "matcha"]}  # the plan's second move first
    services.play(game, player, other, None)
    said = follow(player, game, steps=3)  # each still checked against the board and the rules
    assert len(said) == 3
    assert not any("Three different kinds, one of each" in line for line in said)


def test_a_take_points_at_each_ingredient_in_turn_then_take(player: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    shown = tutorial.step(game, player)
    assert shown is not None
    assert shown.what == "Take Sugar, Blueberry and Cherry."
    assert [p.target for p in shown.presses] == [
        "#market-form [data-clear]",  # only while something else is picked
        "#market-form [data-ing='sugar']",
        "#market-form [data-ing='blueberry']",
        "#market-form [data-ing='cherry']",
        "#market-form [data-take]",
    ]


@pytest.mark.parametrize(
    "wrong", [["matcha"], ["matcha", "matcha"], ["sugar", "blueberry", "cocoa"], ["cherry"]]
)
def test_a_learner_who_picked_something_else_is_pointed_at_clear_then_the_take(
    player: User, wrong: list[str]
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    board = board_of(player, game).get_element_by_id("board")
    picks: list[str] = []
    for name in wrong:
        picks = tap(board, one(board, f"#market-form [data-ing='{name}']"), picks)
    panel = board_of(player, game).get_element_by_id("tutorial-step")
    presses = json.loads(panel.get("data-presses"))
    target = next(p for p in presses if not (p[1] and board.cssselect(p[1])))[0]
    if wrong == ["cherry"]:  # a planned pick, only sooner: no need to clear
        assert target == "#market-form [data-ing='sugar']"
    else:
        assert target == "#market-form [data-clear]"
    action = tap_through(board, presses, picks)
    assert action["type"] == "take"
    assert sorted(action["ingredients"]) == ["blueberry", "cherry", "sugar"]
