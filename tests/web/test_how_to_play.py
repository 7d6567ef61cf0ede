"""How to play pages: one a game, open to anyone, with the settled numbers, linked from tables."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import catalog, services
from games.engines.cakehalla.cards import CARDS, CUSTOMERS, INGREDIENTS, TIER_NAMES
from games.engines.midnight_bakery.cards import BASE_DECK, BATCH_SIZE, EXTRA_CARDS, LOAVES
from games.models import Game
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def text(body: str) -> str:
    """A page's words without its tags, spaces squeezed, as a reader meets them."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def page(slug: str, client: Client | None = None) -> str:
    """A game's rules page, read by a logged-out visitor unless a client is given."""
    response = (client or Client()).get(reverse("games:rules", args=[slug]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("slug", [kind.slug for kind in catalog.available()])
def test_each_games_page_answers_anyone(slug: str, player: User) -> None:
    name = catalog.get(slug).name
    for client in (Client(), client_for(player)):
        body = page(slug, client)
        assert f"How to play {name}" in body


def test_an_unknown_game_has_no_rules_page() -> None:
    assert Client().get("/games/rules/no-such-game/").status_code == 404


def test_the_pages_link_to_each_other() -> None:
    assert reverse("games:rules", args=["cakehalla"]) in page("midnight-bakery")
    assert reverse("games:rules", args=["midnight-bakery"]) in page("cakehalla")


# --- Midnight Bakery ------------------------------------------------------------------------


def test_midnight_bakery_shows_every_cards_art() -> None:
    body = page("midnight-bakery")
    for face in BASE_DECK:
        assert f"/static/cards/{face}.svg" in body


def test_midnight_bakery_deck_and_batches_match_the_rules() -> None:
    words = text(page("midnight-bakery"))
    base, extra = sum(BASE_DECK.values()), sum(EXTRA_CARDS.values())
    assert (base, extra) == (106, 16)
    assert "the deck has 106 cards" in words
    assert "16 extra cards are shuffled in: 122 in all" in words
    loaves = sum(LOAVES[f] * n for f, n in BASE_DECK.items() if f in LOAVES)
    assert f"({loaves} loaves)" in words
    assert f"2 bakers (and the owl): {BATCH_SIZE[2]} cards each" in words
    for bakers in range(3, 9):
        assert f"{bakers} bakers: {BATCH_SIZE[bakers]} cards each" in words
    for face in ("croissant", "macaron", "bun"):
        assert BASE_DECK[face] == 14 and EXTRA_CARDS[face] == 2
    assert words.count("14 cards, 2 extra.") == 3
    assert "5 jam, 10 fruit and 5 chocolate" in words
    assert "10 cards, 2 extra." in words  # truffles
    assert "6 cards, 1 extra." in words and "4 cards, 1 extra." in words  # glaze, peel


def test_midnight_bakery_names_the_scoring() -> None:
    words = text(page("midnight-bakery"))
    assert "Every pair scores 4" in words
    assert "One croissant: 0, two: 4, three: 4, four: 8." in words
    assert "Every three score 9. Two macarons: 0, three: 9, four: 9, six: 18." in words
    assert "One bun: 1, two: 3, three: 5, four: 8, five: 12." in words
    assert "six buns score 15, seven 18" in words
    assert "A jam tart scores 1, a fruit tart 2, a chocolate tart 3" in words
    assert "jam 5, fruit 6, chocolate 7" in words
    assert "chocolate, then fruit, then jam" in words
    assert "(rank 1) scores 7, rank 2 scores 3, and rank 3 scores 1, but only when six" in words


def test_midnight_bakery_names_the_truffles_at_dawn_and_the_tie_breaks() -> None:
    words = text(page("midnight-bakery"))
    assert "(at least one) score 7 each" in words
    assert "every baker with no truffle scores \N{MINUS SIGN}3" in words
    assert "the one among them with the most truffles wins" in words
    assert "they share the night" in words


def test_midnight_bakery_explains_the_peel() -> None:
    words = text(page("midnight-bakery"))
    assert "take two pastries from your batch, in the order you want them filed" in words
    assert "at least two cards in your batch" in words
    assert "one Peel a pick" in words
    assert "only from the pick after the one that put it in your case" in words


def test_midnight_bakery_explains_the_night_owl_at_two() -> None:
    words = text(page("midnight-bakery"))
    assert "At two bakers a Night Owl sits on the window ledge between Sugar and Flour" in words
    assert "never scores and can never win" in words
    assert "you are rank 2 and score 3" in words
    assert "strictly more truffles than every baker, no baker scores the 7" in words


def test_midnight_bakery_names_the_passing_options_and_seats() -> None:
    words = text(page("midnight-bakery"))
    labels = dict(catalog.get("midnight-bakery").options[0].choices)
    assert f"Passing, {labels['alternate']} (the default)" in words
    assert "bake 1 passes to the next seat, bake 2 to the previous seat, bake 3" in words
    assert f"Passing, {labels['next']}: every bake passes to the next seat" in words
    assert "2 to 8 players" in words
    assert "Flour, Sugar, Butter, Cream, Spice, Cocoa, Honey and Moon" in words


def test_midnight_bakery_worked_example_adds_up() -> None:
    words = text(page("midnight-bakery"))
    assert "4 + 9 + 3 + 7 + 3 = 26" in words
    assert "totals 68, 65 and 61" in words


# --- Cakehalla ------------------------------------------------------------------------------


def test_cakehalla_shows_every_token() -> None:
    body = page("cakehalla")
    for name in ("sugar", "blueberry", "matcha", "cherry", "cocoa", "saffron"):
        assert f"/static/cakehalla/tokens/{name}.svg" in body


def test_cakehalla_names_the_take_rules() -> None:
    words = text(page("cakehalla"))
    assert "Take 3 different ingredients" in words
    assert "If fewer than 3 kinds are left, take one of each kind that is left" in words
    assert "Take 2 of the same ingredient , only from a pile that holds 4 or more" in words
    assert "4 of each ordinary ingredient at 2 bakers, 5 at 3 bakers and 7 at 4 bakers" in words
    assert "There are always 5 Saffron" in words
    assert "If you hold more than 10, Saffron included" in words


def test_cakehalla_names_reserving_and_the_saffron() -> None:
    words = text(page("cakehalla"))
    assert "you gain 1 Saffron if any is left" in words
    assert "at most 3 reserved cards" in words
    assert "The only way to get it is to reserve a card" in words
    assert "Saffron covers what is still missing" in words


def test_cakehalla_cards_match_the_engine() -> None:
    words = text(page("cakehalla"))
    assert len(CARDS) == 90 and "There are 90 cards in three tiers" in words
    for tier, count, each in ((1, 40, 8), (2, 30, 6), (3, 20, 4)):
        assert sum(1 for c in CARDS if c.tier == tier) == count
        name = TIER_NAMES[tier].replace("&", "&amp;")
        assert f"Tier {tier}: {name} {count} cards, {each} for each ingredient" in words
    by_name = {c.name: c for c in CARDS}
    pin, bundt, gateau = (
        by_name[n] for n in ("Sugar Rolling Pin", "Cherry Bundt Cake", "Cocoa Grand Gateau")
    )
    assert (pin.points, pin.cost) == (0, (0, 1, 1, 1, 1))
    assert (bundt.points, bundt.cost) == (3, (0, 0, 0, 6, 0))
    assert (gateau.points, gateau.cost) == (5, (0, 0, 0, 7, 3))
    assert "The Cherry Bundt Cake costs 6 Cherry and scores 3" in words
    assert "The Cocoa Grand Gateau costs 7 Cherry and 3 Cocoa and scores 5" in words


def test_cakehalla_names_the_customers() -> None:
    words = text(page("cakehalla"))
    wants = {c.name: c.wants for c in CUSTOMERS}
    assert wants["Lady Meringue"] == (4, 4, 0, 0, 0)
    assert wants["Madame Macaron"] == (0, 0, 3, 3, 3)
    assert "Lady Meringue wants 4 Sugar and 4 Blueberry" in words
    assert "Madame Macaron wants 3 Matcha, 3 Cherry and 3 Cocoa" in words
    assert "that customer visits you for 3 points" in words
    assert "only one visits a turn" in words
    assert "(3 at two bakers, 4 at three, 5 at four)" in words


def test_cakehalla_names_every_customer_of_the_engines_table_and_what_each_wants() -> None:
    words = text(page("cakehalla"))
    assert len(CUSTOMERS) == 10
    for customer in CUSTOMERS:
        pairs = zip(INGREDIENTS, customer.wants, strict=True)
        wants = [f"{n} {i.capitalize()}" for i, n in pairs if n]
        said = f"{', '.join(wants[:-1])} and {wants[-1]}"
        assert f"{customer.name} wants {said}" in words, customer.name


def test_cakehalla_names_the_race_to_15_and_the_tie_breaks() -> None:
    words = text(page("cakehalla"))
    assert "ends a turn with 15 points or more, the round is played out to the last seat" in words
    assert "the one who bought fewer cards wins" in words
    assert "reserved cards you never bought do not count" in words
    assert "they share the win" in words
    assert "2 to 4 players" in words


def test_cakehalla_worked_example_adds_up() -> None:
    words = text(page("cakehalla"))
    assert "7 \N{MINUS SIGN} 2 = 5 Cherry and 3 \N{MINUS SIGN} 1 = 2 Cocoa" in words
    assert "the Saffron stands in for the fifth Cherry" in words


# --- links ----------------------------------------------------------------------------------


def rules_links() -> list[str]:
    """The rules page of every game on offer."""
    return [reverse("games:rules", args=[kind.slug]) for kind in catalog.available()]


def test_the_lobby_links_to_each_games_rules(player: User) -> None:
    for client in (Client(), client_for(player)):
        body = client.get(reverse("lobby")).content.decode()
        for link in rules_links():
            assert f'href="{link}"' in body


def test_the_new_table_page_links_to_each_games_rules(player: User) -> None:
    body = client_for(player).get(reverse("games:new")).content.decode()
    for link in rules_links():
        assert f'href="{link}"' in body


def test_an_open_table_links_to_its_games_rules_in_a_new_tab(open_table: Game) -> None:
    body = Client().get(open_table.get_absolute_url()).content.decode()
    link = reverse("games:rules", args=[open_table.kind])
    assert f'href="{link}" target="_blank" rel="noopener"' in body


def test_a_running_table_links_to_its_games_rules(running_game: Game, rival: User) -> None:
    body = client_for(rival).get(running_game.get_absolute_url()).content.decode()
    assert f'href="{reverse("games:rules", args=[running_game.kind])}"' in body


def test_a_cakehalla_table_links_to_cakehallas_rules(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2)
    body = client_for(player).get(game.get_absolute_url()).content.decode()
    assert f'href="{reverse("games:rules", args=["cakehalla"])}"' in body


@pytest.mark.parametrize(
    ("slug", "summary"),
    [
        ("cakehalla", "Take 3 different ingredients (never Saffron)."),
        ("midnight-bakery", "three bakes before dawn; the highest total wins."),
    ],
)
def test_each_page_opens_with_its_games_own_rules_in_short_once(slug: str, summary: str) -> None:
    body = page(slug)
    assert body.count('id="summary"') == 1 and body.count("<h2>In short</h2>") == 1
    panel = body[body.index('id="summary"') : body.index("</section>", body.index('id="summary"'))]
    assert 'class="rules-summary"' in panel and summary in panel
