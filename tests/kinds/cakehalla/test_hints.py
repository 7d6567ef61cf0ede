"""Cakehalla's hints (games/kinds/cakehalla/hints.py): each customer and the market's Saffron say
what they do in one line on the board, and a practice hint's reason names what a move brings."""

from __future__ import annotations

import pytest
from markupsafe import escape

from accounts.models import User
from games import catalog
from games.boards import render_board
from games.engines.cakehalla.cards import CUSTOMER_POINTS
from games.kinds.cakehalla.hints import customer_hint, saffron_hint
from tests.support.cakehalla_tables import SETUP, load_with, two_baker_table


@pytest.mark.django_db
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


def test_a_buy_that_brings_a_customer_names_it() -> None:
    """Lady Meringue wants 4 Sugar and 4 Blueberry; a fourth Blueberry discount meets her."""
    kind = catalog.get("cakehalla")
    state = kind.engine.new_game(2, seed=1, setup=SETUP)
    ready = load_with(state, 0, discounts=[4, 3, 0, 0, 0], tokens=[5, 5, 5, 5, 5, 0])
    view = kind.engine.view(ready, 0)
    buy = {"type": "buy", "card": "1-blueberry-7"}
    assert buy in kind.engine.legal_actions(ready, 0)
    why = kind.advise(view, buy)[1]
    assert why.endswith("With it Lady Meringue visits you at the end of this turn (3 points).")
    other = {"type": "buy", "card": "1-sugar-7"}  # a Sugar discount meets nobody new
    assert "visit" not in kind.advise(view, other)[1]
