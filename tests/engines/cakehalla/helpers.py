"""Helpers for Cakehalla tests: tables set up through the public dump/load round trip."""

from typing import Any, cast

from games.engines import cakehalla as ch

INGS = ("sugar", "blueberry", "matcha", "cherry", "cocoa", "saffron")


def fresh(players: int = 2, seed: int = 1, **setup: Any) -> Any:
    """A new game, with an optional setup."""
    return ch.new_game(players, seed=seed, setup=setup or None)


def tweak(state: Any, **fields: Any) -> Any:
    """The state with some top-level dump fields replaced."""
    data = cast(dict[str, Any], ch.dump(state))  # edited as plain JSON
    data.update(fields)
    return ch.load(data)


def with_baker(state: Any, seat: int, **fields: Any) -> Any:
    """The state with some of one baker's dump fields replaced (tokens as {ING: n} allowed)."""
    data = cast(dict[str, Any], ch.dump(state))  # edited as plain JSON
    baker = data["bakers"][seat]
    for key, value in fields.items():
        if key in ("tokens", "discounts") and isinstance(value, dict):
            names = INGS if key == "tokens" else INGS[:5]
            value = [value.get(name, 0) for name in names]
        baker[key] = value
    return ch.load(data)


def holdings(state: Any, seat: int) -> dict[str, int]:
    """What a baker holds, from their own view."""
    return ch.view(state, seat)["seats"][seat]["ingredients"]


def market(state: Any) -> dict[str, int]:
    """The market, from a spectator's view."""
    return ch.view(state, None)["market"]


def counter_ids(state: Any, tier: int) -> list[str | None]:
    """The ids on one counter row (None for an empty space)."""
    return [c and c["id"] for c in ch.view(state, None)["counter"][str(tier)]]
