"""Cakehalla as the site offers it: one seat's view turned into its table, and its replay.

Every rule (limits, costs, what a baker is short of, the tie-break) comes from the engine's view
and result; this module only words and draws them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from games import charts
from games.engines import cakehalla as engine
from games.engines.cakehalla import Action, View
from games.engines.cakehalla.bots import BOTS
from games.engines.cakehalla.cards import CARDS, CUSTOMERS, INGREDIENTS
from games.engines.cakehalla.shapes import SeatView
from games.engines.cakehalla.state import HAND_LIMIT, State
from games.kinds.base import (
    Counts,
    Facts,
    GameKind,
    GameRow,
    Lesson,
    Press,
    Scripted,
    SeatRow,
    player_name,
)

SHAPES = {
    "sugar": "white cube",
    "blueberry": "blue circle",
    "matcha": "green leaf",
    "cherry": "red heart",
    "cocoa": "brown bean",
    "saffron": "gold star",
}


def token_art(name: str) -> str:
    """The static path of an ingredient token's drawing."""
    return f"cakehalla/tokens/{name}.svg"


def label(name: str) -> str:
    """An ingredient's name as players read it."""
    return name.capitalize()


def action_json(action: Mapping[str, Any]) -> str:
    """An action as the JSON a button posts."""
    return json.dumps(action, separators=(",", ":"))


@lru_cache(maxsize=4096, typed=True)
def offer_json(kind: str, key: str, value: int | str) -> str:
    """The JSON of a one-field action ({"type": kind, key: value}), written once per process:
    the counter offers about thirty of them to every viewer on every push."""
    return action_json({"type": kind, key: value})


def and_list(parts: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 2 else parts)


def customer_table() -> list[dict[str, Any]]:
    """Every famous customer of the engine's table, in its order, with what each wants in words
    ("4 Sugar and 4 Blueberry") and as tokens: the rules page lists them all."""
    table = []
    for customer in CUSTOMERS:
        wants = [(i, n) for i, n in zip(INGREDIENTS, customer.wants, strict=True) if n]
        table.append(
            {
                "id": customer.id,
                "name": customer.name,
                "words": and_list([f"{n} {label(i)}" for i, n in wants]),
                "wants": [{"name": i, "label": label(i), "n": n} for i, n in wants],
            }
        )
    return table


def count_list(amounts: Mapping[str, int]) -> str:
    """'2 Sugar, 1 Cocoa' for a count per ingredient."""
    return ", ".join(f"{n} {label(name)}" for name, n in amounts.items() if n)


class Legal:
    """The seat's legal actions, sorted by what the board needs to ask of them."""

    def __init__(self, legal: Sequence[Mapping[str, Any]]) -> None:
        self.takes = sorted({tuple(sorted(a["ingredients"])) for a in legal if a["type"] == "take"})
        self.buy = {a["card"] for a in legal if a["type"] == "buy"}
        self.reserve = {a["card"] for a in legal if a["type"] == "reserve" and "card" in a}
        self.blind = {a["tier"] for a in legal if a["type"] == "reserve" and "tier" in a}
        self.customers = [a["customer"] for a in legal if a["type"] == "customer"]
        self.returning = any(a["type"] == "return" for a in legal)
        self.passing = any(a["type"] == "pass" for a in legal)
        self.any = bool(legal)


def tokens(view: Mapping[str, Any]) -> list[str]:
    """Every ingredient token in the market's order, the wild one last."""
    rules = view["rules"]
    return [*rules["ingredients"], rules["wild"]]


def player_names(
    view: Mapping[str, Any], seats: Sequence[SeatRow], seat_names: tuple[str, ...]
) -> list[str]:
    """The display name of each seat position: the seat's name and who sits there."""
    by_position = {s.position: s.user.username for s in seats if s.position is not None}
    return [
        f"{seat_names[i]} ({by_position[i]})" if i in by_position else seat_names[i]
        for i in range(len(view["seats"]))
    ]


def cost_items(
    card: Mapping[str, Any], discounts: Mapping[str, int] | None, ingredients: Sequence[str]
) -> list[dict[str, Any]]:
    """The cost in the five-ingredient order, each marked covered when discounts pay it all."""
    out = []
    for name in ingredients:
        n = card["cost"].get(name, 0)
        if not n:
            continue
        have = discounts[name] if discounts else 0
        out.append(
            {
                "name": name,
                "label": label(name),
                "n": n,
                "art": token_art(name),
                "covered": have >= n,
                "pay": max(0, n - have),
            }
        )
    return out


# While a game runs, the kitchen log shows the newest lines only: every move redraws it on every
# screen, and a long game's whole log would cost more with each move. At the end it shows all.
LOG_LINES = 30


def blocked(view: Mapping[str, Any], mine: int | None, legal: Legal) -> str:
    """Why the viewer cannot act on the table now, or '' when they can."""
    if view["over"]:
        return "The game is over."
    if mine is None:
        return "You are watching this game."
    if view["turn"] != mine:
        # Not the player's name: this reason sits on every card and token, and a name that changes
        # each turn would redraw the whole counter on every screen at every move.
        return "It is not your turn."
    if view["pending"] == "return":
        return f"Put ingredients back down to {view['rules']['hand_limit']} first."
    if view["pending"] == "customer":
        return "Choose which customer visits first."
    if not legal.any:
        return "You cannot act now."
    return ""


def reserve_full(rules: Mapping[str, Any]) -> str:
    """Why a baker may not reserve another card."""
    return f"You already hold {rules['reserve_limit']} reserved cards."


def cost_words(costs: list[dict[str, Any]], discounted: bool) -> str:
    """A card's cost in words, for its accessible name: 'costs 3 Sugar, 2 Cherry; you pay 1 Sugar,
    2 Cherry' (what the viewer pays after their discounts, when those change it)."""
    if not costs:
        return "free"
    full = ", ".join(f"{c['n']} {c['label']}" for c in costs)
    if not discounted or all(c["pay"] == c["n"] for c in costs):
        return f"costs {full}"
    pay = ", ".join(f"{c['pay']} {c['label']}" for c in costs if c["pay"])
    return f"costs {full}; you pay {pay or 'nothing, your discounts cover it'}"


def card_box(
    card: Mapping[str, Any],
    *,
    where: str,
    box: Mapping[str, Any] | None,
    legal: Legal,
    wait: str,
    rules: Mapping[str, Any],
) -> dict[str, Any]:
    """A face-up card with its Buy and Reserve offers and why each may be refused."""
    can_buy = card["id"] in legal.buy
    can_reserve = where == "counter" and card["id"] in legal.reserve
    if can_buy:
        buy_why = ""
    elif wait:
        buy_why = wait
    else:
        short = box["short"].get(card["id"], 0) if box else 0
        buy_why = f"You need {short} more ingredient{'s' if short != 1 else ''}."
    if can_reserve or where != "counter":
        reserve_why = ""
    elif wait:
        reserve_why = wait
    else:
        reserve_why = reserve_full(rules)
    costs = cost_items(card, box["discounts"] if box else None, rules["ingredients"])
    return {
        **card,
        "tier_name": rules["tier_names"].get(str(card["tier"]), ""),
        "discount_label": label(card["discount"]),
        "discount_token": {
            "name": card["discount"],
            "label": label(card["discount"]),
            "art": token_art(card["discount"]),
        },
        "costs": costs,
        "cost_words": cost_words(costs, box is not None),
        "can_buy": can_buy,
        "buy": offer_json("buy", "card", card["id"]),
        "buy_why": buy_why,
        "can_reserve": can_reserve,
        "reserve": offer_json("reserve", "card", card["id"]),
        "reserve_why": reserve_why,
        "where": where,
    }


def counter_rows(
    view: Mapping[str, Any], box: Mapping[str, Any] | None, legal: Legal, wait: str
) -> list[dict[str, Any]]:
    """The counter's rows, the showstoppers on top and the pantry at the bottom."""
    rules = view["rules"]
    rows = []
    for tier in ("3", "2", "1"):
        count = view["piles"][tier]
        can_blind = int(tier) in legal.blind
        if can_blind:
            why = ""
        elif wait:
            why = wait
        elif not count:
            why = "This pile is empty."
        else:
            why = reserve_full(rules)
        rows.append(
            {
                "tier": int(tier),
                "tier_name": rules["tier_names"][tier],
                "pile": count,
                "can_blind": can_blind,
                "blind": offer_json("reserve", "tier", int(tier)),
                "blind_why": why,
                "cards": [
                    card_box(c, where="counter", box=box, legal=legal, wait=wait, rules=rules)
                    if c
                    else None
                    for c in view["counter"][tier]
                ],
            }
        )
    return rows


def market_tokens(
    view: Mapping[str, Any],
    legal: Legal,
    wait: str,
    moved: AbstractSet[str] = frozenset(),
) -> list[dict[str, Any]]:
    """The market's piles, each with whether it can be picked once or twice and why not, and
    whether a rival's turn since the viewer's own moved it (`just`)."""
    takeable = {name for take in legal.takes for name in take}
    rules = view["rules"]
    wild = rules["wild"]
    out = []
    for name in tokens(view):
        left = view["market"][name]
        if name == wild:
            why = saffron_hint(wild)
        elif wait:
            why = wait
        elif not left:
            why = f"No {label(name)} left in the market."
        elif name not in takeable:
            why = f"{label(name)} cannot be taken now."
        else:
            why = ""
        two = not why and (name, name) in legal.takes
        out.append(
            {
                "name": name,
                "label": label(name),
                "shape": SHAPES[name],
                "art": token_art(name),
                "left": left,
                "why": why,
                "two": two,
                "two_why": ""
                if two
                else f"Two alike need {rules['two_alike_min']} or more in the pile.",
                "just": name in moved,
            }
        )
    return out


def token_row(name: str, box: Mapping[str, Any]) -> dict[str, Any]:
    """One ingredient as a row shows it: name, label, shape, art and how many the baker holds."""
    return {
        "name": name,
        "label": label(name),
        "shape": SHAPES[name],
        "art": token_art(name),
        "held": box["ingredients"][name],
    }


def bakery_rows(box: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Per ingredient: the discount card count and the tokens held (Saffron has no card)."""
    return [{**token_row(name, box), "discount": box["discounts"].get(name)} for name in names]


def last_turns(
    log: Sequence[Mapping[str, Any]], mine: int | None = None
) -> dict[int, dict[str, Any]]:
    """Each seat's latest turn in the viewer's kitchen log, in the order they were played: its
    events, and whether it came since the viewer's own last turn (`just`, marked for a moment).

    Several bots answer one move in a row, so the person sees each of those turns; someone who
    does not play (a watcher) sees only the table's newest turn marked.
    """
    runs: list[tuple[int, list[Mapping[str, Any]]]] = []
    for e in log:
        seat = e.get("seat")
        if seat is None:
            continue
        if not runs or runs[-1][0] != seat:
            runs.append((seat, []))
        runs[-1][1].append(e)
    mine_at = max((n for n, (seat, _) in enumerate(runs) if seat == mine), default=-1)
    since = mine_at + 1 if mine is not None else len(runs) - 1
    turns: dict[int, dict[str, Any]] = {}
    for n, (seat, events) in enumerate(runs):
        turns.pop(seat, None)  # re-inserted: the dict keeps the order the turns were played in
        turns[seat] = {"events": events, "just": n >= since and seat != mine}
    return turns


def touched(events: Sequence[Mapping[str, Any]]) -> set[str]:
    """The market's ingredients a turn moved: taken, paid back, or put back."""
    out: set[str] = set()
    for e in events:
        if e["type"] == "take":
            out.update(e["ingredients"])
        elif e["type"] == "buy":
            out.update(name for name, n in e.get("paid", {}).items() if n)
        elif e["type"] == "return":
            out.update(name for name, n in e["ingredients"].items() if n)
    return out


def baker_boxes(
    view: Mapping[str, Any],
    names: list[str],
    mine: int | None,
    seats: Sequence[SeatRow],
    turns: Mapping[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Every baker's public box: ingredients, discounts, reserved cards, customers, points, and
    what they did on their latest turn (`last`; `just` when it came since the viewer's own)."""
    bots = {s.position: s.bot for s in seats if s.position is not None}
    kinds = tokens(view)
    ingredients = view["rules"]["ingredients"]
    turns = last_turns(view["log"], mine) if turns is None else turns
    out = []
    for i, box in enumerate(view["seats"]):
        out.append(
            {
                **box,
                "position": i,
                "player": names[i],
                "bot": bots.get(i, ""),
                "me": i == mine,
                "turn": view["turn"] == i,
                "held": sum(box["ingredients"].values()),
                "rows": bakery_rows(box, kinds),
                "reserved_cards": [
                    r
                    if r.get("hidden")
                    else {**r, "costs": cost_items(r, box["discounts"], ingredients)}
                    for r in box["reserved"]
                ],
                "last": " ".join(event_text(e, names, view["rules"]) for e in turns[i]["events"])
                if i in turns
                else "",
                "just": i in turns and turns[i]["just"],
            }
        )
    return out


def customer_hint(points: int) -> str:
    """What a customer is worth, in one line (on each customer; rules/cakehalla.md)."""
    return f"Visits at the end of your turn when your cards give these discounts: {points} points."


def saffron_hint(wild: str) -> str:
    """What Saffron does, in one line (the market's Saffron, which is never taken)."""
    return (
        f"{label(wild)} is never taken: you get it by reserving a card."
        " It is wild: it pays for any ingredient you are short of."
    )


def customer_boxes(view: Mapping[str, Any], box: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The face-up customers, each want ticked where the viewer already has that many, and what
    a customer is worth (`hint`)."""
    hint = customer_hint(view["rules"]["customer_points"])
    out = []
    for customer in view["customers"]:
        wants = [
            {
                "name": name,
                "label": label(name),
                "art": token_art(name),
                "n": n,
                "met": box is not None and box["discounts"][name] >= n,
            }
            for name, n in customer["wants"].items()
        ]
        out.append(
            {
                **customer,
                "wants_list": wants,
                "all_met": all(w["met"] for w in wants),
                "hint": hint,
            }
        )
    return out


def event_text(event: Mapping[str, Any], names: list[str], rules: Mapping[str, Any]) -> str:
    """One kitchen log line in words."""
    kind = event["type"]
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "take":
        return f"{who} took {', '.join(label(n) for n in event['ingredients'])}."
    if kind == "reserve" and event.get("blind"):
        known = f" (the {event['name']})" if "name" in event else ""
        return f"{who} reserved the top of the tier {event['tier']} pile face down{known}."
    if kind == "reserve":
        return f"{who} reserved the {event['name']}."
    if kind == "buy":
        paid = count_list(event["paid"]) or "nothing"
        return f"{who} bought the {event['name']}, paying {paid}."
    if kind == "return":
        return f"{who} put back {count_list(event['ingredients'])}."
    if kind == "customer":
        return f"{event['name']} visited {who}: {rules['customer_points']} points."
    if kind == "final":
        return f"{who} reached {rules['winning_points']} points: this is the last round."
    if kind == "pass":
        return f"{who} could do nothing and passed."
    if kind == "over":
        return "The game is over."
    return f"{who} {kind}."


def end_reason(result: Mapping[str, Any], rules: Mapping[str, Any]) -> str:
    """Why the game ended, as the engine's result says."""
    if result["ended"] == "passes":
        return "Every baker passed for a whole round, so the game ended as it stood."
    return f"A baker reached {rules['winning_points']} points and the round was played out."


def standings(view: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    """Final standings in the engine's order, with the winner (or shared win) and why."""
    seats = view["seats"]
    result = view["result"]
    winners = result["winners"]
    rows = []
    for place, i in enumerate(result["order"], start=1):
        rows.append(
            {
                "place": place,
                "position": i,
                "player": names[i],
                "points": seats[i]["points"],
                "cards": seats[i]["cards_bought"],
                "customers": len(seats[i]["customers"]),
                "winner": i in winners,
            }
        )
    top = seats[winners[0]]
    if len(winners) > 1:
        why = (
            f"{' and '.join(names[i] for i in winners)} share the win: "
            f"{top['points']} points and {top['cards_bought']} cards bought each."
        )
    elif result["lost_tie"]:
        others = ", ".join(f"{names[i]} {seats[i]['cards_bought']}" for i in result["lost_tie"])
        why = (
            f"{names[winners[0]]} wins the tie on {top['points']} points by buying fewer "
            f"cards ({top['cards_bought']} against {others})."
        )
    else:
        why = f"{names[winners[0]]} wins with {top['points']} points."
    return {"rows": rows, "why": why, "ended": end_reason(result, view["rules"])}


def return_rows(view: Mapping[str, Any], box: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The put-back dialog's rows: what the baker holds of each ingredient."""
    return [token_row(name, box) for name in tokens(view) if box["ingredients"][name]]


def customer_choices(legal: Legal, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The customers the viewer may choose between, each with its choose action."""
    faces = {c["id"]: c for c in view["customers"]}
    return [
        {
            "id": cid,
            "name": faces[cid]["name"],
            "wants": count_list(faces[cid]["wants"]),
            "choose": offer_json("customer", "customer", cid),
        }
        for cid in legal.customers
    ]


def rival_moved(turns: Mapping[int, dict[str, Any]]) -> set[str]:
    """The market piles that the rivals' (and bots') turns since the viewer's own moved."""
    return {name for turn in turns.values() if turn["just"] for name in touched(turn["events"])}


def just_now(turns: Mapping[int, dict[str, Any]], bakers: list[dict[str, Any]]) -> list[str]:
    """Those turns in words, in the order they were played."""
    return [bakers[seat]["last"] for seat, turn in turns.items() if turn["just"]]


def context(
    game: GameRow, view: View, legal: list[Action], me: SeatRow | None, seats: Sequence[SeatRow]
) -> dict[str, Any]:
    """Template context for the Cakehalla board of one viewer."""
    mine = me.position if me is not None else None
    names = player_names(view, seats, game.spec.seat_names)
    allowed = Legal(legal)
    rules = view["rules"]
    wait = blocked(view, mine, allowed)
    turns = last_turns(view["log"], mine)
    bakers = baker_boxes(view, names, mine, seats, turns)
    my_box = bakers[mine] if mine is not None else None
    my_view = view["seats"][mine] if mine is not None else None
    reserved = []
    if my_box is not None:
        reserved = [
            card_box(r, where="reserve", box=my_view, legal=allowed, wait=wait, rules=rules)
            for r in my_box["reserved"]
        ]
    held = sum(my_view["ingredients"].values()) if my_view else 0
    return {
        "view": view,
        "my_turn": not wait,
        "turn_name": names[view["turn"]] if view["turn"] is not None else "",
        # The rivals' (and bots') turns since the viewer's own, in words at the top, where a
        # phone's screen starts.
        "just_now": just_now(turns, bakers),
        "customers": customer_boxes(view, my_view),
        "bakers": bakers,
        "my_box": my_box,
        "reserved": reserved,
        "rows": counter_rows(view, my_view, allowed, wait),
        "market": market_tokens(view, allowed, wait, rival_moved(turns)),
        "takes_json": json.dumps([list(t) for t in allowed.takes]),
        "can_pass": allowed.passing,
        "pass_action": action_json({"type": "pass"}),
        "returning": allowed.returning,
        "excess": held - rules["hand_limit"],
        "held": held,
        "return_rows": return_rows(view, my_view) if allowed.returning and my_view else [],
        "choosing": customer_choices(allowed, view) if allowed.customers else [],
        "log": [
            event_text(e, names, rules)
            for e in reversed(view["log"] if view["over"] else view["log"][-LOG_LINES:])
        ],
        "log_total": len(view["log"]),
        "final": standings(view, names) if view["over"] else None,
        "piles": [(t, rules["tier_names"][t], view["piles"][t]) for t in ("1", "2", "3")],
        "hand_limit": rules["hand_limit"],
        "reserve_limit": rules["reserve_limit"],
    }


def hands(state: State, seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
    """Each baker's reserved cards at this moment, from their own view (a seat never placed at
    the table holds none, and is left out)."""
    out = []
    placed = sorted((s.position, s) for s in seats if s.position is not None)
    for position, _ in placed:
        reserved = engine.view(state, position)["seats"][position]["reserved"]
        out.append({"player": player_name(seats, position), "cards": reserved})
    return out


def revealed(state: State) -> View:
    """The spectator view with each baker's reserved cards as their owner saw them."""
    view = engine.view(state, None)
    boxes: list[SeatView] = [
        {**box, "reserved": engine.view(state, i)["seats"][i]["reserved"]}
        for i, box in enumerate(view["seats"])
    ]
    return {**view, "seats": boxes}


def visible_cards(view: View) -> dict[str, Mapping[str, Any]]:
    """The cards this seat can see by id: the counter's and its own reservations."""
    cards: dict[str, Mapping[str, Any]] = {}
    for row in view["counter"].values():
        cards.update((c["id"], c) for c in row if c is not None)
    you = view["you"]
    if you is not None:
        for r in view["seats"][you]["reserved"]:
            if "hidden" not in r:
                cards[r["id"]] = r
    return cards


def take_why(view: View, taken: Sequence[str]) -> str:
    """Why a take helps: the nearest card it brings closer, from the seat's own `short`."""
    you = view["you"]
    short = view["seats"][you].get("short", {}) if you is not None else {}
    cards = visible_cards(view)
    aims = [
        (n, -cards[c]["points"], c)
        for c, n in short.items()
        if n > 0 and c in cards and any(cards[c]["cost"].get(t, 0) for t in taken)
    ]
    if not aims:
        return "The strongest bot scores it highest from what you can see."
    n, _, card = min(aims)
    return f"It brings you closer to the {cards[card]['name']} (you are {n} short of it now)."


def saffron_too(view: View) -> str:
    """', and a Saffron' when reserving still earns the wild token."""
    wild = view["rules"]["wild"]
    return f", and you get a {label(wild)}" if view["market"].get(wild, 0) else ""


def meets(discounts: Mapping[str, int], wants: Mapping[str, int]) -> bool:
    """Whether these discounts give at least what a customer wants."""
    return all(discounts.get(name, 0) >= n for name, n in wants.items())


def customers_met_by(view: View, card: Mapping[str, Any]) -> tuple[list[str], bool]:
    """The face-up customers this card's discount would newly meet for the seat, by name, and
    whether another one is met already (then the seat chooses: one visits a turn)."""
    you = view["you"]
    if you is None or "discount" not in card:
        return [], False
    have = view["seats"][you]["discounts"]
    after = {**have, card["discount"]: have.get(card["discount"], 0) + 1}
    met = [c["name"] for c in view["customers"] if meets(after, c["wants"])]
    already = [c["name"] for c in view["customers"] if meets(have, c["wants"])]
    return [name for name in met if name not in already], bool(already)


def visit_why(view: View, card: Mapping[str, Any]) -> str:
    """' With it, <customer> visits you ...' when the card's discount meets a customer."""
    met, choice = customers_met_by(view, card)
    points = view["rules"]["customer_points"]
    if not met:
        return ""
    if len(met) == 1 and not choice:
        return f" With it {met[0]} visits you at the end of this turn ({points} points)."
    return f" With it {and_list(met)} can visit you ({points} points; one visits a turn)."


def advise(view: View, action: Action) -> tuple[str, str]:
    """The suggested action in words and one line of why, from the seat's own view only."""
    cards = visible_cards(view)
    rules = view["rules"]
    if action["type"] == "take":
        taken = action["ingredients"]
        labels = [label(n) for n in taken]
        words = " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 2 else labels)
        if len(labels) == 2 and labels[0] == labels[1]:
            words = f"two {labels[0]}"
        return f"Take {words}.", take_why(view, taken)
    if action["type"] == "buy":
        card = cards.get(action["card"], {})
        name, points = card.get("name", "card"), int(card.get("points", 0))
        discount = label(str(card.get("discount", "")))
        return (
            f"Buy the {name}.",
            f"It scores {points} point{'' if points == 1 else 's'} and gives a lasting"
            f" {discount} discount.{visit_why(view, card)}",
        )
    if action["type"] == "reserve" and "tier" in action:
        return (
            f"Reserve the top of the tier {action['tier']} pile face down.",
            f"An unseen card kept for later{saffron_too(view)}.",
        )
    if action["type"] == "reserve" and "card" in action:
        name = cards.get(action["card"], {}).get("name", "card")
        return f"Reserve the {name}.", f"It keeps the card from your rivals{saffron_too(view)}."
    if action["type"] == "return":
        return (
            f"Put back {count_list(action['ingredients'])}.",
            f"You may hold {rules['hand_limit']}: these help you least now.",
        )
    if action["type"] == "customer":
        names = {c["id"]: c["name"] for c in view["customers"]}
        return (
            f"Choose {names.get(action['customer'], 'that customer')} to visit.",
            "Your rivals are closest to that customer: it keeps them from winning it.",
        )
    return "Pass.", "Nothing else is allowed now."


def stat_facts(view: Mapping[str, Any]) -> Facts:
    """The cards each baker bought, by name."""
    facts: Facts = Counter()
    for seat in view.get("seats", []):
        for card in seat.get("cards", []):
            facts["bought", card["name"]] += 1
    return facts


def take_presses(ingredients: Sequence[str]) -> tuple[Press, ...]:
    """Each ingredient of a take tapped in turn (the same one twice for two), then Take; a tap is
    made once board.js marks the token picked (data-picked). First, only while something else is
    picked: Clear."""
    planned = "".join(f":not([data-ing='{name}'])" for name in dict.fromkeys(ingredients))
    wrong = [f"[data-ing][data-picked]:not([data-picked='0']){planned}"]
    wrong += [
        f"[data-ing='{n}'][data-picked='2']" for n in ingredients if ingredients.count(n) == 1
    ]
    clean = "".join(f":not(:has({picked}))" for picked in wrong)
    clear = Press("#market-form [data-clear]", f"#market-form{clean}")
    presses = [clear]
    for i, name in enumerate(ingredients):
        token = f"#market-form [data-ing='{name}']"
        if ingredients[:i].count(name):
            done = f"{token}[data-picked='2']"
        else:
            done = f"{token}[data-picked='1'], {token}[data-picked='2']"
        presses.append(Press(token, done))
    return (*presses, Press("#market-form [data-take]"))


def sends(action: Mapping[str, Any]) -> str:
    """A selector for the button whose value is this action, whatever the order of its fields."""
    fields = (json.dumps({k: v}, separators=(",", ":"))[1:-1] for k, v in action.items())
    return "button" + "".join(f"[value*='{field}']" for field in fields)


def return_presses(amounts: Mapping[str, int]) -> tuple[Press, ...]:
    """One more of an ingredient to put back, as many times as it takes, then Put back; a tap is
    made once board.js counts the row up to it (data-n)."""
    presses = []
    for name, n in amounts.items():
        row = f"#return-form [data-back='{name}']"
        for i in range(1, n + 1):
            done = ", ".join(f"{row}[data-n='{j}']" for j in range(i, 2 * HAND_LIMIT))
            presses.append(Press(f"{row} [data-step='1']", done))
    return (*presses, Press("#return-form [data-return]"))


def lesson_control(action: Mapping[str, Any]) -> tuple[Press, ...]:
    """The board's taps that make this action, in order: a card's (or pile's) menu is opened
    before its Buy or Reserve."""
    if action["type"] == "take":
        return take_presses(list(action["ingredients"]))
    if action["type"] == "return":
        return return_presses(action["ingredients"])
    if action["type"] == "reserve" and "tier" in action:
        menu = f"#pile-{action['tier']}"
    elif action["type"] in {"buy", "reserve"}:
        menu = f":is(#offer-counter-{action['card']}, #offer-reserve-{action['card']})"
    else:
        return (Press(f"#board {sends(action)}"),)
    return (Press(f"{menu} > summary", f"{menu}[open]"), Press(f"{menu} {sends(action)}"))


# The guided first game starts part way, as a board game's tutorial does: you (the first seat)
# hold 6 points of cards and race a random bot to 15 in six moves that show every kind of turn.
LESSON_YOU: dict[str, Any] = {
    "tokens": {"blueberry": 2, "cocoa": 1},
    "bought": [
        *("1-sugar-1", "1-blueberry-5", "1-matcha-1", "1-matcha-5", "1-matcha-8"),
        *("2-matcha-6", "1-cherry-1", "1-cherry-7", "2-cherry-5"),
    ],
}
LESSON_RIVAL: dict[str, Any] = {
    "tokens": {"sugar": 1, "cocoa": 2},
    "bought": ["1-cocoa-1", "1-sugar-2", "2-sugar-1", "1-cocoa-8"],
}
LESSON_COUNTER = {
    1: ["1-cocoa-5", "1-blueberry-1", "1-sugar-5", "1-cherry-4"],
    2: ["2-sugar-3", "2-cherry-3", "2-cocoa-1", "2-blueberry-5"],
    3: ["3-sugar-2", "3-cherry-3", "3-blueberry-1", "3-cocoa-4"],
}


def lesson_piles() -> dict[str, list[str]]:
    """Each pile: the counter's four first, then the cards no baker holds, in the table's order."""
    held = {*LESSON_YOU["bought"], *LESSON_RIVAL["bought"]}
    piles = {}
    for tier, face_up in LESSON_COUNTER.items():
        rest = [c.id for c in CARDS if c.tier == tier and c.id not in held | set(face_up)]
        piles[str(tier)] = face_up + rest
    return piles


LESSON = Lesson(
    setup={
        "piles": lesson_piles(),
        "customers": ["pair-2", "pair-0", "trio-3"],
        "bakers": [LESSON_YOU, LESSON_RIVAL],
    },
    seed=20261204,  # seats you first, and the bot's choices leave your plan open
    bot="random",
    options={},
    welcome=(
        "A game joined part way, at 6 points: each card you bought takes one ingredient off"
        " every later cost (the small cards in Your bakery). Race one bot to 15 in six turns."
    ),
    scoring=(
        "Most points wins; on a tie the baker who bought fewer cards would win (reserved cards"
        " do not count), and if that ties too they share the win."
    ),
    round_scored="",
    control=lesson_control,
    results_control="#region-results .results-card",
    close_control="",
    script=(
        Scripted(
            {"type": "take", "ingredients": ["sugar", "blueberry", "cherry"]},
            "Three different kinds, one of each, is the everyday turn, and Blueberry is what"
            " the Cherry Cream Puff costs you.",
        ),
        Scripted(
            {"type": "take", "ingredients": ["matcha", "matcha"]},
            "Two of one kind are allowed while its pile holds 4 or more, and the Cherry Opera"
            " Cake needs 2 Matcha beyond your discounts.",
        ),
        Scripted(
            {"type": "reserve", "card": "3-cherry-3"},
            "Reserving keeps this 4-point cake for you alone and gives you a Saffron, the wild"
            " ingredient that pays for any one you lack.",
        ),
        Scripted(
            {"type": "buy", "card": "2-cherry-3"},
            "Your cards' discounts pay its Sugar and Matcha so you pay only 3 Blueberry, and its"
            " Cherry discount is the fourth the Matcha Monk wants: a customer visits for 3 points.",
        ),
        Scripted(
            {"type": "take", "ingredients": ["sugar", "blueberry", "cocoa"]},
            "One more Blueberry, with your Saffron, pays for the Opera Cake you reserved.",
        ),
        Scripted(
            {"type": "buy", "card": "3-cherry-3"},
            "It takes you to 15 points: the round is played out so your rival has as many turns,"
            " then the most points wins.",
        ),
    ),
)


class Cakehalla(GameKind[State, View, Action]):
    """Take ingredients, reserve and buy cards, win customers: race to 15, 2 to 4 bakers."""

    slug = "cakehalla"
    name = "Cakehalla"
    engine = engine
    bots = BOTS
    seat_names = ("Rye", "Spelt", "Oat", "Barley")
    min_players = 2
    max_players = 4
    blurb = "Take ingredients, bake cards, win customers: race to 15."
    regions = (
        "status",
        "results",
        "info",
        "customers",
        "bakers",
        "counter",
        "market",
        "mine",
        "dialog",
    )
    replay_regions = ("status", "results", "info", "customers", "bakers", "counter", "market")
    extra = {"css": "cakehalla/cakehalla.css", "js": "cakehalla/board.js"}
    stats_template = "games/cakehalla/_stats.html"
    lesson = LESSON

    def board(
        self,
        game: GameRow,
        view: View,
        legal: list[Action],
        me: SeatRow | None,
        seats: Sequence[SeatRow],
    ) -> dict[str, Any]:
        """The Cakehalla board of one viewer."""
        return context(game, view, legal, me, seats)

    def turn(self, view: Mapping[str, Any]) -> Hashable:
        """A turn lasts from its main action through putting tokens back and choosing a customer."""
        return int(view["turns_done"])

    def advise(self, view: View, action: Action) -> tuple[str, str]:
        """The move the strongest bot chose, and why, from the seat's own view."""
        return advise(view, action)

    def rules_context(self) -> dict[str, Any]:
        """The ten famous customers, from the engine's table."""
        return {"customers": customer_table()}

    def seat_results(self, result: Mapping[str, Any], position: int) -> dict[str, Any]:
        """The cards the baker bought (the tie-break)."""
        return {"cards_bought": result["cards_bought"][position]}

    def stat_facts(self, view: Mapping[str, Any], result: Mapping[str, Any]) -> Facts:
        """The cards bought."""
        return stat_facts(view)

    def stat_charts(self, counts: Counts) -> dict[str, Any]:
        """The most bought cards."""
        return {"bought": charts.top_bars(counts.get("bought", {}))}

    def replay_view(self, state: State) -> View:
        """The table with every reservation face up, as its owner saw it."""
        return revealed(state)

    def hidden_hands(self, state: State, seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
        """Every baker's reserved cards."""
        return hands(state, seats)

    def describe_move(
        self,
        before: State,
        after: State,
        seat: int,
        action: Action,
        seats: Sequence[SeatRow],
        *,
        eyes: int | None = None,
    ) -> tuple[str, list[str]]:
        """The move in the words of a kitchen log: the mover's own (blind cards named), or the
        watching seat's (a rival's blind card only by its tier)."""
        reader = seat if eyes is None else eyes
        old, new = engine.view(before, reader), engine.view(after, reader)
        names = player_names(new, seats, self.seat_names)
        lines = [event_text(e, names, new["rules"]) for e in new["log"][len(old["log"]) :]]
        if not lines:
            return f"{player_name(seats, seat)} moved.", []
        return lines[0], lines[1:]
