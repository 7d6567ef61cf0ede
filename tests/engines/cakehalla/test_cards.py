"""Every card and customer matches the settled table in rules/cakehalla.md."""

import re

from games.engines import cakehalla as ch
from games.engines.cakehalla.cards import CARDS, CUSTOMERS
from games.engines.cakehalla.shapes import CardView

ORDER = ["sugar", "blueberry", "matcha", "cherry", "cocoa"]

SETTLED = {
    1: """0: o1 1, o2 1, o3 1, o4 1
0: o1 1, o2 2, o3 1, o4 1
0: o1 2, o2 2, o4 1
0: own 3, o1 1, o4 1
0: o3 2, o4 1
0: o1 2, o4 2
0: o1 3
1: o2 4""",
    2: """1: o2 3, o3 2, o4 2
1: own 2, o1 3, o3 3
2: o2 1, o3 4, o4 2
2: o3 5, o4 3
2: o3 5
3: own 6""",
    3: """3: o1 3, o2 3, o3 5, o4 3
4: o4 7
4: own 3, o3 3, o4 6
5: own 3, o4 7""",
}


def settled_cards() -> dict[str, tuple[int, dict[str, int]]]:
    """The 90 cards as the rules page tabulates them: id -> (points, cost)."""
    out = {}
    for tier, text in SETTLED.items():
        for row, line in enumerate(text.splitlines(), start=1):
            points, rest = line.split(":")
            for i, ing in enumerate(ORDER):
                cost = {}
                for slot, n in re.findall(r"(own|o\d) (\d)", rest):
                    offset = 0 if slot == "own" else int(slot[1])
                    cost[ORDER[(i + offset) % 5]] = int(n)
                out[f"{tier}-{ing}-{row}"] = (int(points), cost)
    return out


def all_cards_in_view() -> dict[str, CardView]:
    """Every card, seen through the public view of setups that put each pile on the counter."""
    seen: dict[str, CardView] = {}
    for tier in (1, 2, 3):
        ids = [card.id for card in CARDS if card.tier == tier]
        for start in range(0, len(ids), 4):
            state = ch.new_game(2, seed=0, setup={"piles": {str(tier): ids[start : start + 4]}})
            for card in ch.view(state, None)["counter"][str(tier)]:
                if card:
                    seen[card["id"]] = card
    return seen


def test_there_are_ninety_cards_forty_thirty_twenty():
    tiers = [card.tier for card in CARDS]
    assert (len(CARDS), tiers.count(1), tiers.count(2), tiers.count(3)) == (90, 40, 30, 20)


def test_every_card_matches_the_settled_table():
    settled = settled_cards()
    seen = all_cards_in_view()
    assert set(seen) == set(settled)
    for card_id, (points, cost) in settled.items():
        card = seen[card_id]
        assert (card["points"], card["cost"]) == (points, cost), card_id
        assert card["discount"] == card_id.split("-")[1]
        assert card["tier"] == int(card_id[0])
        assert card["name"]


def test_card_1_sugar_8_costs_four_matcha_for_a_point():
    card = next(c for c in CARDS if c.id == "1-sugar-8")
    assert (card.points, card.cost) == (1, (0, 0, 4, 0, 0))


def test_cards_of_each_tier_share_a_name_list_fitting_the_tier():
    names: dict[int, set[str]] = {card.tier: set() for card in CARDS}
    for card in CARDS:
        names[card.tier].add(card.name.split(" ", 1)[1])
    assert "Rolling Pin" in names[1] and "Eclair" in names[2] and "Croquembouche" in names[3]
    assert len({card.name for card in CARDS}) == 90


def test_every_customer_matches_the_settled_table():
    expected = {}
    for i in range(5):
        expected[f"pair-{i}"] = {ORDER[i]: 4, ORDER[(i + 1) % 5]: 4}
        expected[f"trio-{i}"] = {ORDER[(i + k) % 5]: 3 for k in range(3)}
    seen = {}
    for i in range(0, 10, 5):
        ids = [c.id for c in CUSTOMERS][i : i + 5]
        state = ch.new_game(4, seed=0, setup={"customers": ids})
        for customer in ch.view(state, None)["customers"]:
            seen[customer["id"]] = customer["wants"]
    assert seen == expected
