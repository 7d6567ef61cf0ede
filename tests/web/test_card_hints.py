"""One-line card hints at the table (issue 31): each Midnight Bakery face says what it scores, in
the rules' settled numbers, on every card of the batch."""

from __future__ import annotations

import pytest
from markupsafe import escape

from accounts.models import User
from games.boards import render_board
from games.engines import midnight_bakery as engine
from games.engines.midnight_bakery.cards import FACE_NAMES, FACES, TART_FACE_VALUE, standard_faces
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
from games.kinds.midnight_bakery import HINTS, hint
from games.models import Game

pytestmark = pytest.mark.django_db


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


def test_the_batch_shows_each_cards_hint(running_game: Game, player: User) -> None:
    me = running_game.seats.get(user=player)
    assert running_game.snapshot is not None
    batch = engine.view(engine.load(running_game.snapshot), me.position)["batch"]
    assert batch
    html = render_board(running_game, player)
    for card in batch:
        said = str(escape(HINTS[card["face"]]))
        name = str(escape(card["name"]))
        assert f'title="{name}: {said}" aria-description="{said}"' in html
        assert f'<span class="card-hint">{said}</span>' in html
