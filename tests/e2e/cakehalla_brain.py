"""How the person in the Cakehalla browser test decides, and a seed whose game shows every move.

The person reads their own seat's view (what their screen shows) and the legal moves; the test then
makes that move by clicking. A simulation with the site's own bot and bot random stream finds a
seed whose whole game holds every kind of move the test must see, so the clicking game is known to
cover them all and to end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engines import cakehalla as engine
from games.services.dealing import draw_positions

INGREDIENTS = ("sugar", "blueberry", "matcha", "cherry", "cocoa")
HAND_LIMIT = 10
FEATURES = (
    "take three",
    "take two",
    "reserve face up",
    "reserve blind",
    "buy from counter",
    "buy from reserve",
    "put back",
    "customer",
)


def target_wants(view: Mapping[str, Any]) -> dict[str, int]:
    """The discounts of the customer the person aims at (the first pair still face up)."""
    pairs = [c for c in view["customers"] if c["id"].startswith("pair")]
    chosen = pairs[0] if pairs else (view["customers"][0] if view["customers"] else None)
    return dict(chosen["wants"]) if chosen else {}


def need(card: Mapping[str, Any], box: Mapping[str, Any]) -> dict[str, int]:
    """What the baker still lacks of each ingredient to buy the card."""
    return {
        name: max(0, n - box["discounts"][name] - box["ingredients"][name])
        for name, n in card["cost"].items()
    }


def goal_card(view: Mapping[str, Any], box: Mapping[str, Any]) -> dict[str, Any] | None:
    """The card the person saves for: one of theirs reserved, else the best-value counter card."""
    wants = target_wants(view)
    options = [r for r in box["reserved"] if not r.get("hidden")]
    if not options:
        options = [c for row in view["counter"].values() for c in row if c]
    if not options:
        return None

    def value(card: Mapping[str, Any]) -> float:
        useful = wants.get(card["discount"], 0) > box["discounts"][card["discount"]]
        return (card["points"] * 2 + 2 * useful + 1) / (1 + sum(need(card, box).values()))

    return max(options, key=value)


def return_choice(box: Mapping[str, Any]) -> dict[str, int]:
    """Put back the most-held ordinary ingredients first, Saffron last."""
    held = dict(box["ingredients"])
    excess = sum(held.values()) - HAND_LIMIT
    back: dict[str, int] = {}
    while excess > 0:
        name = (
            max(INGREDIENTS, key=lambda n: held[n])
            if any(held[n] for n in INGREDIENTS)
            else "saffron"
        )
        held[name] -= 1
        back[name] = back.get(name, 0) + 1
        excess -= 1
    return back


def decide(
    view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], done: set[str]
) -> Mapping[str, Any]:
    """The person's move: each kind of move once early on, then save for cards and buy them."""
    me = view["you"]
    box = view["seats"][me]
    if view["pending"] == "return":
        return {"type": "return", "ingredients": return_choice(box)}
    if view["pending"] == "customer":
        return legal[0]
    takes3 = [a for a in legal if a["type"] == "take" and len(set(a["ingredients"])) == 3]
    takes2 = [a for a in legal if a["type"] == "take" and len(a["ingredients"]) == 2]
    takes2 = [a for a in takes2 if a["ingredients"][0] == a["ingredients"][1]]
    reserved = {r["id"] for r in box["reserved"] if not r.get("hidden")}
    face_up = [a for a in legal if a["type"] == "reserve" and "card" in a]
    blind = [a for a in legal if a["type"] == "reserve" and "tier" in a]
    buys = [a for a in legal if a["type"] == "buy"]
    held = sum(box["ingredients"].values())
    goal = goal_card(view, box)
    lack = need(goal, box) if goal else {}

    def take_value(action: Mapping[str, Any]) -> float:
        return sum(lack.get(n, 0) > 0 for n in set(action["ingredients"])) + 0.01 * sum(
            view["market"][n] for n in action["ingredients"]
        )

    if "take three" not in done and takes3:
        return max(takes3, key=take_value)
    if "take two" not in done and takes2:
        return max(takes2, key=take_value)
    if "reserve face up" not in done and face_up:
        tier1 = [a for a in face_up if a["card"].startswith("1-")] or face_up
        return tier1[0]
    if "reserve blind" not in done and blind:
        return blind[0]
    if "put back" not in done and held >= HAND_LIMIT - 2 and takes3:
        return max(takes3, key=take_value)
    from_reserve = [a for a in buys if a["card"] in reserved]
    if from_reserve:
        return from_reserve[0]
    if buys:
        wants = target_wants(view)
        cards = {c["id"]: c for row in view["counter"].values() for c in row if c}

        def buy_value(action: Mapping[str, Any]) -> float:
            card = cards.get(action["card"])
            if card is None:
                return 0.0
            useful = wants.get(card["discount"], 0) > box["discounts"][card["discount"]]
            return card["points"] * 3 + 2 * useful + 0.5

        return max(buys, key=buy_value)
    if takes3:
        return max(takes3, key=take_value)
    if takes2:
        return max(takes2, key=take_value)
    return legal[0]


def feature_of(action: Mapping[str, Any], reserved_ids: set[str]) -> str:
    """Which kind of move an action is, in the test's words."""
    kind = action["type"]
    if kind == "take":
        return (
            "take two"
            if len(action["ingredients"]) == 2 and len(set(action["ingredients"])) == 1
            else "take three"
        )
    if kind == "reserve":
        return "reserve blind" if "tier" in action else "reserve face up"
    if kind == "buy":
        return "buy from reserve" if action["card"] in reserved_ids else "buy from counter"
    if kind == "return":
        return "put back"
    return kind


def simulate(seed: int, level: str, max_turns: int) -> tuple[int, set[str], int] | None:
    """Play the game the site would play (person at the host's seat); None if it runs too long."""
    from games import catalog

    bot = catalog.get("cakehalla").bots[level]
    person = draw_positions(seed, 2)[0]
    state = engine.new_game(2, seed=seed)
    done: set[str] = set()
    moves = 0
    turns = 0
    visits = 0
    while not engine.is_over(state):
        seat = engine.active_seats(state)[0]
        legal = engine.legal_actions(state, seat)
        view: Mapping[str, Any] = engine.view(state, seat)  # read as the JSON the page gets
        if seat == person:
            action = decide(view, legal, done)
            reserved_ids = {r["id"] for r in view["seats"][seat]["reserved"] if not r.get("hidden")}
            done.add(feature_of(action, reserved_ids))
            turns += action["type"] not in ("return", "customer")
            if turns > max_turns:
                return None
        else:
            action = bot(view, legal, random.Random(f"{seed}:{moves}"))
        before = len(state.bakers[person].customers) if hasattr(state, "bakers") else 0
        state = engine.apply_action(state, seat, action)
        visits += len(state.bakers[person].customers) - before
        moves += 1
    if visits:
        done.add("customer")
    return person, done, turns


def find_seed(level: str = "greedy", max_turns: int = 34, tries: int = 400) -> int:
    """The first seed whose game, with the person at seat 0, shows every kind of move."""
    for seed in range(1, tries):
        if draw_positions(seed, 2)[0] != 0:
            continue
        outcome = simulate(seed, level, max_turns)
        if outcome and set(FEATURES) <= outcome[1]:
            return seed
    raise AssertionError("no seed shows every kind of move")
