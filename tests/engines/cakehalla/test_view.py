"""Views: everything public, blind reservations to their owner only, never the piles or seed."""

import json
from typing import cast

from games.engines import cakehalla as ch
from games.engines.cakehalla.shapes import CardView, ReservedCardView
from tests.engines.cakehalla.helpers import fresh, tweak

KEYS = {
    "turn",
    "round",
    "pending",
    "market",
    "counter",
    "piles",
    "customers",
    "seats",
    "log",
    "over",
}
SEAT_KEYS = {"name", "ingredients", "discounts", "points", "cards_bought", "reserved", "customers"}


def blind_reserved():
    """Baker 0 has reserved the top of the tier 2 pile."""
    state = fresh(2, piles={"2": ["2-sugar-1", "2-sugar-2", "2-sugar-3", "2-sugar-4", "2-cocoa-6"]})
    return ch.apply_action(state, 0, {"type": "reserve", "tier": 2})


def test_view_has_the_contract_keys_and_is_json_ready():
    state = fresh(3)
    for seat in (None, 0, 1, 2):
        seen = ch.view(state, seat)
        assert set(seen) >= KEYS
        assert all(set(s) >= SEAT_KEYS for s in seen["seats"])
        assert json.loads(json.dumps(seen)) == seen
    seen = ch.view(state, 0)
    assert seen["turn"] == 0 and seen["round"] == 1 and seen["pending"] is None
    assert set(seen["counter"]) == {"1", "2", "3"} and len(seen["counter"]["1"]) == 4
    assert seen["piles"] == {"1": 36, "2": 26, "3": 16}


def test_a_blind_reservation_is_seen_by_its_owner_only():
    state = blind_reserved()
    assert cast(ReservedCardView, ch.view(state, 0)["seats"][0]["reserved"][0])["id"] == "2-cocoa-6"
    for seat in (1, None):
        seen = ch.view(state, seat)
        assert seen["seats"][0]["reserved"] == [{"tier": 2, "hidden": True}]
        assert "2-cocoa-6" not in json.dumps(seen)
        assert seen["log"][-1] == {"type": "reserve", "seat": 0, "tier": 2, "blind": True}


def test_views_never_show_the_seed_or_pile_order():
    state = fresh(2, seed=123456789)
    data = ch.dump(state)
    text = json.dumps(ch.view(state, 0))
    assert "123456789" not in text and str(data["rng"]) not in text
    assert all(f'"{card}"' not in text for pile in data["piles"] for card in pile)


def test_after_the_end_the_blind_reservations_are_shown():
    state = tweak(blind_reserved(), over=True)
    assert cast(ReservedCardView, ch.view(state, 1)["seats"][0]["reserved"][0])["id"] == "2-cocoa-6"
    assert ch.view(state, 1)["turn"] is None


def test_a_face_up_reservation_stays_visible_to_all():
    state = ch.apply_action(
        fresh(2),
        0,
        {"type": "reserve", "card": cast(CardView, ch.view(fresh(2), 0)["counter"]["3"][0])["id"]},
    )
    assert cast(ReservedCardView, ch.view(state, 1)["seats"][0]["reserved"][0])["blind"] is False
