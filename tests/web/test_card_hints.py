"""The rules at the table (issue 31): each Midnight Bakery face says what it scores in one line,
in the rules' settled numbers, on every card of the batch; a How to play panel above the board
(outside the live board) holds each game's rules in short and the link to the full page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from markupsafe import escape

from accounts.models import User
from games import services
from games.boards import render_board
from games.engines import midnight_bakery as engine
from games.engines.cakehalla.cards import CUSTOMER_POINTS
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
from games.kinds.cakehalla.hints import customer_hint, saffron_hint
from games.kinds.midnight_bakery.hints import HINTS, hint
from games.models import Game
from tests.conftest import client_for
from tests.web.cakehalla_tables import two_baker_table

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


def test_cakehallas_customers_and_saffron_say_what_they_do(player: User, rival: User) -> None:
    game = two_baker_table(player, rival)
    html = render_board(game, player)
    said = str(escape(customer_hint(CUSTOMER_POINTS)))
    assert "3 points." in said and CUSTOMER_POINTS == 3
    customers = html.count('<li class="customer')
    assert customers == 3  # bakers + 1 face up
    assert html.count(f'<span class="cust-hint">{said}</span>') == customers
    assert str(escape(saffron_hint("saffron"))) in html
    assert "It is wild: it pays for any ingredient you are short of." in saffron_hint("saffron")


# --- the rules panel at the table ---------------------------------------------------------------


def words(html: str) -> str:
    """Text without its tags, spaces squeezed, as a reader meets it."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&minus;", "-")


def rules_panel(body: str) -> str:
    """The table page's rules panel, checked to stand before and outside the live board."""
    start = body.index('<details class="rules-panel">')
    end = body.index("</details>", start) + len("</details>")
    live = body.index('<div id="live"')
    assert end < live  # outside #live: a push that redraws the board never touches it
    assert body.count('<details class="rules-panel">') == 1
    return body[start:end]


MIDNIGHT_LINES = (
    "Croissant: a pair scores 4.",
    "Macaron: three score 9.",
    "Cinnamon Bun: 1, 3, 5, 8, 12 for 1 to 5 buns; +3 each after.",
    "Tarts: jam 1, fruit 2, chocolate 3; a Honey Glaze on one adds 4.",
    "Baguettes: most loaves 7, second 3 (third 1 at 6+ bakers).",
    "at dawn the most score 7, none -3.",
    "Baker's Peel: scores 0; on a later pick, take two pastries at once.",
)
CAKEHALLA_LINES = (
    "Take 3 different ingredients (never Saffron).",
    "Take 2 of one ingredient whose pile holds 4 or more.",
    "Reserve a card (at most 3) and gain 1 Saffron if any is left.",
    "is wild: it pays for any ingredient you are short of.",
    "keep at most 10 ingredients",
    "visits you for 3 points (one a turn)",
    "ends a turn with 15 or more",
)


def test_a_running_table_has_the_rules_panel_outside_the_board(
    running_game: Game, player: User
) -> None:
    body = client_for(player).get(running_game.get_absolute_url()).content.decode()
    panel = rules_panel(body)
    assert "<summary>How to play Midnight Bakery</summary>" in panel
    said = words(panel)
    for line in MIDNIGHT_LINES:
        assert line in said
    link = reverse("games:rules", args=["midnight-bakery"])
    assert f'<a href="{link}" target="_blank" rel="noopener">' in panel
    assert "(opens in a new tab)" in said


def test_a_cakehalla_table_has_its_own_summary(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2)
    panel = rules_panel(client_for(player).get(game.get_absolute_url()).content.decode())
    assert "<summary>How to play Cakehalla</summary>" in panel
    said = words(panel)
    for line in CAKEHALLA_LINES:
        assert line in said
    assert "Croissant" not in said
    assert f'href="{reverse("games:rules", args=["cakehalla"])}" target="_blank"' in panel


@pytest.mark.parametrize(
    ("slug", "lines"), [("midnight-bakery", MIDNIGHT_LINES), ("cakehalla", CAKEHALLA_LINES)]
)
def test_the_full_rules_page_opens_with_the_same_summary(slug: str, lines: tuple[str, ...]) -> None:
    body = Client().get(reverse("games:rules", args=[slug])).content.decode()
    assert 'id="summary"' in body and 'href="#summary"' in body
    said = words(body)
    for line in lines:
        assert line in said
