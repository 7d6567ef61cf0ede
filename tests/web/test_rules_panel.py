"""The rules at the table (issue 31): a How to play panel above the board (outside the live
board) holds each game's rules in short and the link to the full page, which opens with the same
summary. (What each card says of itself is in tests/kinds/<game>/test_hints.py.)"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


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
