"""The Cakehalla table page per persona: counter, market, bakery, dialogs, standings, no leaks."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from accounts.models import User
from games import services
from games.engines import cakehalla as engine
from games.models import Game
from tests.conftest import client_for
from tests.support.cakehalla_tables import (
    SETUP,
    load_with,
    play,
    start_with,
    state_of,
    two_baker_table,
    user_at,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def table(player: User, rival: User) -> Game:
    return two_baker_table(player, rival)


def page(game: Game, user: User | None) -> str:
    return client_for(user).get(game.get_absolute_url()).content.decode()


def test_cakehalla_is_offered_in_the_new_table_form(player: User) -> None:
    body = client_for(player).get("/games/new/").content.decode()
    assert 'value="cakehalla"' in body


def test_a_cakehalla_table_takes_two_to_four_seats(player: User) -> None:
    with pytest.raises(services.ServiceError, match="2 to 4"):
        services.create_game(player, "cakehalla", 5)
    assert services.create_game(player, "cakehalla", 4).capacity == 4


def test_the_lobby_offers_every_bot_level_in_words(player: User) -> None:
    game = services.create_game(player, "cakehalla", 3)
    body = page(game, player)
    for name in ("beginner", "steady", "strong", "master"):
        assert f"Add a {name} bot" in body
    assert "Weighs hundreds of ways the game could still go" in body


def test_the_board_shows_counter_rows_cheapest_at_the_bottom(table: Game, player: User) -> None:
    body = page(table, player)
    rows = [int(t) for t in re.findall(r'class="row tier-(\d)"', body)]
    assert rows == [3, 2, 1]
    assert "1-sugar-7" in body and "3-cherry-3" in body
    assert body.count('class="pile"') == 3
    assert ">36</span>" in body  # the tier 1 pile count, 40 - 4 face up


def test_the_board_shows_customers_market_and_bakery_with_saffron(
    table: Game, player: User
) -> None:
    body = page(table, player)
    for name in ("Lady Meringue", "Count Choux", "Duchess Cerise"):
        assert name in body
    assert "Your bakery" in body
    for token in ("sugar", "blueberry", "matcha", "cherry", "cocoa", "saffron"):
        assert f"cakehalla/tokens/{token}.svg" in body
    assert "Saffron is never taken" in body


def test_the_first_baker_gets_the_take_controls_and_the_other_does_not(
    table: Game, player: User, rival: User
) -> None:
    first = user_at(table, 0)
    second = user_at(table, 1)
    assert "data-take disabled" in page(table, first)
    body = page(table, second)
    assert "data-take disabled" not in body
    assert "turn." in body and 'aria-disabled="true"' in body


def test_a_spectator_sees_the_table_and_no_controls(table: Game, outsider: User) -> None:
    body = page(table, outsider)
    assert "You are watching" in body
    assert "data-take disabled" not in body
    assert "You are watching this game." in body


def test_taking_over_htmx_returns_the_regions_that_moved(table: Game) -> None:
    first = user_at(table, 0)
    action = {"type": "take", "ingredients": ["sugar", "matcha", "cocoa"]}
    response = client_for(first).post(
        f"/games/{table.pk}/play/",
        {"action": json.dumps(action), "version": table.version},
        headers=HTMX,
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="board-live"' in body and "took Sugar, Matcha, Cocoa" in body
    assert 'id="region-market"' in body and 'id="region-customers"' not in body
    assert 'id="board"' not in body


def test_an_illegal_take_is_400_with_a_readable_message(table: Game) -> None:
    first = user_at(table, 0)
    response = client_for(first).post(
        f"/games/{table.pk}/play/",
        {
            "action": json.dumps({"type": "take", "ingredients": ["saffron"]}),
            "version": table.version,
        },
        headers=HTMX,
    )
    assert response.status_code == 400
    assert "Saffron cannot be taken" in response.content.decode()


def test_affordable_cards_glow_and_covered_costs_fade(table: Game) -> None:
    start_with(
        table,
        SETUP,
        lambda s: load_with(s, 0, tokens=[0, 3, 0, 0, 0, 0], discounts=[0, 0, 0, 2, 0]),
    )
    body = page(table, user_at(table, 0))
    buyable = {a["card"] for a in engine.legal_actions(state_of(table), 0) if a["type"] == "buy"}
    glowing = re.findall(
        r'data-offer="([^"]+)">\s*<summary[^>]*>\s*<span class="ccard[^"]* glow"', body
    )
    assert buyable == {"1-sugar-7"}
    assert glowing == ["1-sugar-7"]
    assert 'class="cc covered"' in body  # 1-cocoa-5 wants 2 Cherry: covered by 2 discounts


def test_holding_too_many_opens_the_put_back_dialog(table: Game) -> None:
    start_with(table, SETUP, lambda s: load_with(s, 0, tokens=[3, 2, 2, 1, 1, 0]))
    play(table, {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]})
    body = page(table, user_at(table, 0))
    assert "Put back down to 10" in body
    assert 'data-excess="2"' in body
    assert "data-take disabled" not in body
    rival_body = page(table, user_at(table, 1))
    assert "Put back down to 10" not in rival_body


def test_a_choice_of_customers_opens_the_visit_dialog(table: Game) -> None:
    def ready(state: Any) -> Any:
        return load_with(state, 0, discounts=[4, 4, 3, 3, 3], tokens=[0, 0, 0, 0, 0, 0])

    start_with(table, SETUP, ready)
    play(table, {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]})
    body = page(table, user_at(table, 0))
    assert "Which customer visits you?" in body
    assert body.count("pair-0") >= 1 and "&#34;customer&#34;:&#34;trio-1&#34;" in body


def test_ticks_mark_the_wants_the_viewer_already_meets(table: Game) -> None:
    start_with(table, SETUP, lambda s: load_with(s, 0, discounts=[4, 0, 0, 0, 0]))
    mine = page(table, user_at(table, 0))
    theirs = page(table, user_at(table, 1))
    assert "(you have it)" in mine
    assert "(you have it)" not in theirs


def blind_reserve(game: Game, tier: int) -> str:
    """The seat to act reserves the top of a pile; returns the card it got."""
    state = state_of(game)
    card = engine.dump(state)["piles"][tier - 1][0]
    play(game, {"type": "reserve", "tier": tier})
    return card


@pytest.mark.parametrize("persona", ["owner", "rival", "outsider", "anonymous"])
def test_a_blind_reservation_and_the_pile_order_stay_hidden(
    table: Game, outsider: User, persona: str
) -> None:
    owner = user_at(table, 0)
    secret = blind_reserve(table, 2)
    piles = engine.dump(state_of(table))["piles"]
    viewer = {"owner": owner, "rival": user_at(table, 1), "outsider": outsider, "anonymous": None}
    body = page(table, viewer[persona])
    assert (secret in body) == (persona == "owner"), persona
    for pile in piles:
        for card in pile:
            assert card not in body, (persona, card)


def test_the_game_info_menu_has_scores_piles_and_the_kitchen_log(table: Game) -> None:
    play(table, {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]})
    body = page(table, user_at(table, 1))
    assert "Game info" in body and "Kitchen log" in body and "Scores" in body
    assert "took Sugar, Blueberry, Matcha" in body
    assert "Tier 3 (Showstoppers): 16 cards face down" in body


def finish_on(game: Game, rival_points: int, rival_cards: list[str]) -> str:
    """Seat 0 buys its reserved 1-point card to reach 15, seat 1 takes: the standings page."""
    start_with(
        game,
        SETUP,
        lambda s: load_with(
            load_with(s, 1, points=rival_points, bought=rival_cards),
            0,
            points=14,
            tokens=[0, 0, 4, 0, 0, 0],
            bought=["1-cocoa-7"],
            reserved=[["1-sugar-8", False]],
        ),
    )
    play(game, {"type": "buy", "card": "1-sugar-8"})
    play(game, {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]})
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    return page(game, user_at(game, 1))


def test_the_final_standings_name_the_winner_and_why(table: Game) -> None:
    body = finish_on(table, 3, ["2-cocoa-6"])
    assert "Final standings" in body
    assert "Rye (" in body and "wins with 15 points." in body
    assert "A baker reached 15 points and the round was played out." in body


def test_a_tie_goes_to_fewer_cards_and_says_why(table: Game) -> None:
    body = finish_on(table, 15, ["2-cocoa-6", "3-cocoa-4", "1-cherry-8"])
    assert "wins the tie on 15 points by buying fewer cards (2 against" in body


def test_a_shared_win_says_so(table: Game) -> None:
    body = finish_on(table, 15, ["3-cocoa-4", "3-cherry-4"])
    assert "share the win: 15 points and 2 cards bought each." in body
    assert body.count("&#9733; winner") == 2


def test_moderators_find_cakehalla_tables_and_actions_in_admin(table: Game) -> None:
    play(table, {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]})
    staff = User.objects.create_superuser("mod", password="a-long-baking-secret")
    client = client_for(staff)
    listing = client.get("/admin/games/game/", {"kind": "cakehalla"}).content.decode()
    assert f"/admin/games/game/{table.pk}/change/" in listing
    assert client.get(f"/admin/games/game/{table.pk}/change/").status_code == 200
    actions = client.get("/admin/games/action/", {"game__kind": "cakehalla"}).content.decode()
    assert "sugar" in actions


def test_the_new_table_form_says_how_many_each_game_seats(player: User) -> None:
    body = client_for(player).get("/games/new/").content.decode()
    assert "Cakehalla: 2 to 4" in body and "Midnight Bakery: 2 to 8" in body


def test_the_new_table_form_refuses_five_cakehalla_seats(player: User) -> None:
    response = client_for(player).post("/games/new/", {"kind": "cakehalla", "capacity": 5})
    assert response.status_code == 400
    assert "Cakehalla seats 2 to 4 players." in response.content.decode()
    assert not Game.objects.exists()
