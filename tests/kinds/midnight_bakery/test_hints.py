"""Midnight Bakery's hints (games/kinds/midnight_bakery/hints.py).

Each face says what it scores in one line (issue 31), in the rules' settled numbers, on every card
of the batch.

A hint's reason is true when it is given (issue 38): it promises no card that no later pick of
this bake can bring ("It starts a croissant pair" on the bake's last card), and a Peel's reason
says what the rules say a Peel does, claiming no later use no later pick allows. The exact
positions come first, written by hand; then a sweep over many seeded nights checks every reason
at every pick against the engine itself: the reason's promise must be met by the night played on
as kindly as it can be (every batch losing one card a pick), and a reason that says it is the
last pick must be right about that too."""

from __future__ import annotations

import random
from typing import Any

import pytest
from markupsafe import escape

from accounts.models import User
from games.boards import render_board
from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.bots import choose_greedy
from games.engines.midnight_bakery.cards import (
    FACE_NAMES,
    FACES,
    TART_FACE_VALUE,
    face_of,
    standard_faces,
)
from games.engines.midnight_bakery.pick import can_peel
from games.engines.midnight_bakery.scoring import (
    BAGUETTE_RANK_POINTS,
    EMPTY_BOX_PENALTY,
    GLAZE_BONUS,
    THIRD_RANK_FROM,
    TRUFFLE_LEAD_BONUS,
    bun_points,
    croissant_points,
    macaron_points,
)
from games.kinds.midnight_bakery.hints import HINTS, advise, hint
from games.models import Game
from tests.engines.midnight_bakery.helpers import crafted, keep, peel

# --- what each face scores, on its card ----------------------------------------------------------


def test_every_face_in_the_deck_has_a_hint() -> None:
    faces = set(FACES) | set(FACE_NAMES) | set(standard_faces(8))
    for face in faces:
        assert hint(face), f"{face} has no hint"
    assert set(HINTS) == faces  # and no hint for a face the deck does not have


def test_the_hints_hold_the_engines_numbers() -> None:
    assert HINTS["croissant"] == f"A pair scores {croissant_points(2)}."
    assert HINTS["macaron"] == f"Three score {macaron_points(3)}."
    buns = ", ".join(str(bun_points(n)) for n in range(1, 6))
    assert HINTS["bun"] == f"{buns} for 1 to 5 buns; +{bun_points(6) - bun_points(5)} each after."
    first, second, third = (BAGUETTE_RANK_POINTS[r] for r in (1, 2, 3))
    for face in ("baguette-1", "baguette-2", "baguette-3"):
        assert HINTS[face] == (
            f"Most loaves {first}, second {second} (third {third} at {THIRD_RANK_FROM}+ bakers)."
        )
    for face, value in TART_FACE_VALUE.items():
        assert HINTS[face] == f"Scores {value}, or {value + GLAZE_BONUS} glazed."
    assert HINTS["truffle"] == (
        f"At dawn: most truffles {TRUFFLE_LEAD_BONUS}, none {EMPTY_BOX_PENALTY}."
    )
    assert HINTS["glaze"] == f"+{GLAZE_BONUS} on your best unglazed tart."
    assert HINTS["peel"].startswith("Scores 0.")


@pytest.mark.django_db
def test_the_batch_shows_each_cards_hint(running_game: Game, player: User) -> None:
    me = running_game.seats.get(user=player)
    assert running_game.snapshot is not None
    batch = mb.view(mb.load(running_game.snapshot), me.position)["batch"]
    assert batch
    html = render_board(running_game, player)
    for card in batch:
        said = str(escape(HINTS[card["face"]]))
        name = str(escape(card["name"]))
        assert f'title="{name}: {said}" aria-description="{said}"' in html
        assert f'<span class="card-hint">{said}</span>' in html


# --- a practice hint's reason ------------------------------------------------------------------

ME = 0


def said(state: mb.State, action: dict[str, Any]) -> tuple[str, str]:
    """The hint's words and reason for this action, from my own seat's view."""
    assert action in mb.legal_actions(state, ME)
    return advise(mb.view(state, ME), action)


# --- the positions named in the issue --------------------------------------------------------


def test_the_bakes_last_croissant_does_not_start_a_pair() -> None:
    state = crafted(3, batches=[("croissant-01",), ("bun-01",), ("jam-01",)])
    words, why = said(state, keep("croissant-01"))
    assert words == "Keep the Croissant."
    assert "starts a croissant pair" not in why
    assert why == "This is your last pick of the bake: a croissant without its pair scores 0."


def test_a_croissant_with_a_later_pick_to_come_still_starts_a_pair() -> None:
    # (Bake 1 passes to the next seat: my next batch is Butter's, seat 2's.)
    state = crafted(3, batches=[("croissant-01", "bun-01"), ("bun-02",), ("jam-01", "jam-02")])
    assert said(state, keep("croissant-01"))[1] == "It starts a croissant pair: a pair scores 4."


def test_a_croissant_whose_batch_has_cards_to_spare_but_no_batch_comes_back() -> None:
    # Butter's batch is empty and mine goes on with its one card left: no later pick for me.
    state = crafted(3, batches=[("croissant-01", "bun-01"), ("bun-02",), ()])
    assert "starts a croissant pair" not in said(state, keep("croissant-01"))[1]


def test_the_bakes_last_macaron_does_not_promise_three() -> None:
    state = crafted(
        3, batches=[("macaron-02",), ("bun-01",), ("jam-01",)], cases=[("macaron-01",), (), ()]
    )
    why = said(state, keep("macaron-02"))[1]
    assert "of 3" not in why
    assert why.startswith("This is your last pick of the bake")


def test_a_macaron_with_one_pick_to_come_does_not_start_three() -> None:
    state = crafted(3, batches=[("macaron-01", "bun-01"), ("bun-02",), ("jam-01", "jam-02")])
    why = said(state, keep("macaron-01"))[1]
    assert "1 of 3" not in why
    assert why == (
        "Macarons score only in threes, and too few cards can still come to you this bake."
    )


def test_a_macaron_with_a_peel_and_one_pick_to_come_may_start_three() -> None:
    # The one later pick holds two cards, and the Peel in my case can take both.
    state = crafted(
        3,
        batches=[("macaron-01", "bun-01"), ("bun-02",), ("jam-01", "jam-02", "jam-03")],
        cases=[("peel-01",), (), ()],
    )
    assert said(state, keep("macaron-01"))[1] == "Three macarons score 9: it makes 1 of 3."


def test_the_peel_spent_on_the_bakes_last_two_cards_says_no_later_use() -> None:
    state = crafted(
        3,
        batches=[("chocolate-01", "peel-02"), ("bun-01", "bun-02"), ("jam-01", "jam-02")],
        cases=[("peel-01",), (), ()],
    )
    words, why = said(state, peel("chocolate-01", "peel-02"))
    assert words == "Use your Peel: take the Chocolate tart, then the Baker's Peel."
    assert "for later" not in why and "worth more" not in why
    assert why == (
        "Your Peel takes both from this batch, then leaves the game. The Peel you take scores 0:"
        " no later pick of this bake holds two cards."
    )
    plain = crafted(
        3,
        batches=[("chocolate-01", "glaze-01"), ("bun-01", "bun-02"), ("jam-01", "jam-02")],
        cases=[("peel-01",), (), ()],
    )
    assert said(plain, peel("chocolate-01", "glaze-01"))[1] == (
        "Your Peel takes both from this batch, then leaves the game. No later pick of this bake"
        " holds two cards for it, and unused it scores 0."
    )


def test_a_peel_spent_mid_bake_weighs_it_against_a_later_pick() -> None:
    batches = [("chocolate-01", "glaze-01", "bun-01", "bun-02")] + [
        (f"jam-0{n}", f"fruit-0{n}", f"bun-0{n + 2}", f"truffle-0{n}") for n in (1, 2)
    ]
    state = crafted(3, batches=batches, cases=[("peel-01",), (), ()])
    assert said(state, peel("chocolate-01", "glaze-01"))[1] == (
        "Your Peel takes both from this batch, then leaves the game. Two cards now are worth"
        " more than saving it for a later pick of this bake."
    )
    assert said(state, keep("chocolate-01"))[1] == "It scores 3 now, 7 once glazed."


def test_keeping_a_peel_with_no_later_pick_of_two_says_it_scores_0() -> None:
    # The batch that comes to me next holds two now, one once its holder keeps a card.
    batches = [("peel-01", "bun-01"), ("bun-02", "jam-01"), ("jam-02", "fruit-01")]
    state = crafted(3, batches=batches)
    assert said(state, keep("peel-01"))[1] == (
        "A Peel scores 0, and no later pick of this bake holds two cards for it to take."
    )


# --- every reason at every pick of many nights ------------------------------------------------


def played_on(state: mb.State, seat: int, now: dict[str, Any], peel_later: bool) -> list[int]:
    """The night played on from this pick as kindly as it can be for the seat: it plays `now`,
    every other baker keeps one card a pick, and at each later pick of this bake the seat keeps
    one too, or spends a Peel whenever it can (`peel_later`). Per later pick: the size of the
    batch it is handed, or with `peel_later` the cards it takes."""
    bake, action, seen = state.bake, now, []
    while not state.over and state.bake == bake:
        for other in mb.active_seats(state):
            mine = action if other == seat else keep(state.batches[other][0])
            state = mb.apply_action(state, other, mine)
        if seat in mb.active_seats(state) and state.bake == bake:
            batch = state.batches[seat]
            spend = peel_later and can_peel(state, seat)
            seen.append((2 if spend else 1) if peel_later else len(batch))
            action = peel(batch[0], batch[1]) if spend else keep(batch[0])
        else:
            action = {}  # the seat sits out this pick
    return seen


# What a reason promises, and how to see it kept on the night played on: (words, check). A check
# reads `picks` (batch sizes at each later pick after this action), `instead` (the same after
# keeping one card now instead of spending the Peel) and `cards` (the most cards still to take).
Check = Any
PROMISES: list[tuple[str, Check]] = [
    ("starts a croissant pair", lambda f: f["cards"] >= 1),
    ("it makes 1 of 3", lambda f: f["cards"] >= 2),
    ("it makes 2 of 3", lambda f: f["cards"] >= 1),
    ("too few cards can still come", lambda f: f["cards"] < 2),
    ("once glazed", lambda f: f["cards"] >= 1),
    ("waits for your next tart", lambda f: f["cards"] >= 1),
    ("last pick of the bake", lambda f: not f["picks"]),
    ("take two cards at once on a later pick", lambda f: max(f["picks"], default=0) >= 2),
    ("stays in your case for a later pick", lambda f: max(f["picks"], default=0) >= 2),
    ("The Peel you take scores 0", lambda f: max(f["picks"], default=0) < 2),
    ("saving it for a later pick", lambda f: max(f["instead"], default=0) >= 2),
    ("holds two cards for it", lambda f: max(f["instead"], default=0) < 2),
    ("holds two cards for it to take", lambda f: max(f["picks"], default=0) < 2),
]


def facts(state: mb.State, seat: int, action: dict[str, Any], memo: dict[Any, Any]) -> Any:
    """The night played on after this action: the batch sizes depend only on how many cards it
    takes, the cards still to take also on the Peels it leaves in the case (kept per pick)."""
    taken = action["cards"] if action["type"] == "peel" else [action["card"]]
    peels = sum(face_of(c) == "peel" for c in state.cases[seat]) + sum(
        face_of(c) == "peel" for c in taken
    )
    key = (seat, len(taken), peels - (action["type"] == "peel"))
    if key not in memo:
        instead = keep(taken[0])
        memo[key] = {
            "picks": played_on(state, seat, action, peel_later=False),
            "instead": played_on(state, seat, instead, peel_later=False),
            "cards": sum(played_on(state, seat, action, peel_later=True)),
        }
    return memo[key]


def checked_reasons(state: mb.State, rng: random.Random) -> int:
    """Every reason each baker could be given at this pick, checked; how many were."""
    checked, memo = 0, dict[Any, Any]()
    for seat in mb.active_seats(state):
        view = mb.view(state, seat)
        legal = mb.legal_actions(state, seat)
        keeps = {face_of(a["card"]): a for a in legal if a["type"] == "keep"}
        peels = [a for a in legal if a["type"] == "peel"]
        shown: list[mb.Action] = [*keeps.values(), *rng.sample(peels, min(3, len(peels)))]
        shown.append(choose_greedy(view, legal, rng))
        for action in shown:
            why = advise(view, action)[1]
            found = facts(state, seat, dict(action), memo)
            for words, kept in PROMISES:
                if words in why:
                    assert kept(found), f"{why!r} at bake {state.bake} pick {state.pick}: {found}"
            checked += 1
    return checked


@pytest.mark.parametrize("bakers", [2, 3, 4, 5, 6, 8])
def test_no_reason_promises_a_future_the_night_cannot_bring(bakers: int) -> None:
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        passing = "next" if seed % 2 else "alternate"
        state = mb.new_game(bakers, seed=seed, options={"passing": passing})
        while not state.over:
            checked += checked_reasons(state, rng)
            for seat in mb.active_seats(state):
                legal = mb.legal_actions(state, seat)
                # Random bakers spend Peels anywhere, leaving batches of every size around.
                if rng.random() < 0.5:
                    chosen = rng.choice(legal)
                else:
                    chosen = choose_greedy(mb.view(state, seat), legal, rng)
                state = mb.apply_action(state, seat, chosen)
    assert checked > 500
