"""The catalog: every registered game brings what the site asks of it, and the lobby follows."""

from __future__ import annotations

import pytest
from django.template.loader import get_template

from games import catalog
from games.kinds.base import AnyKind
from games.kinds.midnight_bakery import MidnightBakery
from games.web.forms import NewGameForm

KINDS = catalog.available()


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.slug)
def test_every_region_and_the_replay_hands_have_a_template(kind: AnyKind) -> None:
    for region in kind.regions:
        get_template(f"{kind.template_dir}/_{region}.html")
    get_template(kind.hands_template)
    assert set(kind.replay_regions) <= set(kind.regions)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.slug)
def test_its_bots_cover_the_quick_game_and_resigned_seats(kind: AnyKind) -> None:
    assert set(kind.quick_bots) <= set(kind.bot_levels) and kind.house_bot in kind.bot_levels
    assert kind.min_players <= kind.quick_capacity <= kind.max_players
    assert len(kind.seat_names) >= kind.max_players


def test_a_slug_is_registered_once() -> None:
    with pytest.raises(ValueError, match="already registered"):
        catalog.register(MidnightBakery())
    assert [k.slug for k in catalog.available()] == ["midnight-bakery", "cakehalla"]


def test_the_new_table_form_seats_what_the_games_on_offer_seat() -> None:
    field = NewGameForm().fields["capacity"]
    assert (field.min_value, field.max_value) == (2, 8)  # type: ignore[attr-defined]
    assert "Midnight Bakery: 2 to 8" in str(field.help_text)
    assert "Cakehalla: 2 to 4" in str(field.help_text)
    assert not NewGameForm({"kind": "midnight-bakery", "capacity": 9}).is_valid()
