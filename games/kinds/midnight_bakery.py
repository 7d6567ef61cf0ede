"""Midnight Bakery as the site offers it: its table, its results and its replay in words."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games import charts
from games.engines import midnight_bakery as engine
from games.engines.midnight_bakery import Action, State, View
from games.engines.midnight_bakery.bots import BOTS, LOAVES, TART_VALUE
from games.engines.midnight_bakery.scoring import bun_points
from games.kinds.base import (
    AppendOnly,
    Counts,
    Facts,
    GameKind,
    GameRow,
    Lesson,
    Option,
    Press,
    SeatRow,
    player_name,
)

BREAKDOWN = (
    ("croissant", "Croissants"),
    ("macaron", "Macarons"),
    ("bun", "Buns"),
    ("tart", "Tarts"),
    ("baguette", "Baguettes"),
)


# What each face scores, in one line (rules/midnight-bakery.md's numbers): the board shows it on
# every card of the batch (its title, its description, a small line under its name). Every face
# of the deck has one (tests/web/test_card_hints.py).
HINTS: dict[str, str] = {
    "croissant": "A pair scores 4.",
    "macaron": "Three score 9.",
    "bun": "1, 3, 5, 8, 12 for 1 to 5 buns; +3 each after.",
    "baguette-1": "Most loaves 7, second 3 (third 1 at 6+ bakers).",
    "baguette-2": "Most loaves 7, second 3 (third 1 at 6+ bakers).",
    "baguette-3": "Most loaves 7, second 3 (third 1 at 6+ bakers).",
    "jam": "Scores 1, or 5 glazed.",
    "fruit": "Scores 2, or 6 glazed.",
    "chocolate": "Scores 3, or 7 glazed.",
    "truffle": "At dawn: most truffles 7, none -3.",
    "glaze": "+4 on your best unglazed tart.",
    "peel": "Scores 0. Later, take two at once.",
}


def hint(face: str) -> str:
    """What a face scores, in one line ("" for a face with no hint)."""
    return HINTS.get(face, "")


def art(face: str) -> str:
    """The static path of a face's card art."""
    return f"cards/{face}.svg"


def keep_json(card_id: str) -> str:
    """The keep action for one card, as the JSON a button posts."""
    return json.dumps({"type": "keep", "card": card_id})


def player_names(view: Mapping[str, Any], seats: Sequence[SeatRow]) -> list[str]:
    """The display name at each seat position of the view (the owl by its own name)."""
    by_position = {s.position: s.user.username for s in seats if s.position is not None}
    return [
        by_position.get(i, box["name"]) if not box["owl"] else box["name"]
        for i, box in enumerate(view["seats"])
    ]


def last_reveal(view: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """Each seat's part of the latest reveal (and the owl's snatches after it), from the public log:
    the words, the cards filed, whether a Peel took two, and whether it is the newest thing on
    the table (no baker has locked since), which the board marks for a moment.
    """
    events = view.get("log", [])
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i]["type"] == "keep"), None)
    if at is None:
        return {}
    key = (events[at].get("bake"), events[at].get("pick"))
    start = at
    while start > 0 and events[start - 1]["type"] == "keep":
        if (events[start - 1].get("bake"), events[start - 1].get("pick")) != key:
            break
        start -= 1
    newest = not any(box["locked"] for box in view["seats"])
    out: dict[int, dict[str, Any]] = {}
    for e in events[start:]:
        if e["type"] not in ("keep", "snatch") or "seat" not in e:
            continue
        cards = e.get("cards") or [e.get("card")]
        seen = out.setdefault(
            e["seat"], {"texts": [], "cards": [], "peel": False, "newest": newest}
        )
        seen["texts"].append(e["text"])
        seen["cards"].extend(c for c in cards if c)
        seen["peel"] = seen["peel"] or bool(e.get("peel"))
    return {seat: {**seen, "text": " ".join(seen.pop("texts"))} for seat, seen in out.items()}


def boxes(
    view: Mapping[str, Any], seats: Sequence[SeatRow], mine: int | None
) -> list[dict[str, Any]]:
    """Every seat's public box with its truffle ring (gold leader, red empty baker), and its part
    of the latest reveal (`last`)."""
    names = player_names(view, seats)
    most = max((box["truffles"] for box in view["seats"]), default=0)
    waiting = set(view.get("waiting_for", []))
    revealed = last_reveal(view)
    out = []
    for i, box in enumerate(view["seats"]):
        out.append(
            {
                **box,
                "position": i,
                "player": names[i],
                "me": i == mine,
                "leader": most > 0 and box["truffles"] == most,
                "empty_box": box["truffles"] == 0 and not box["owl"],
                "choosing": i in waiting,
                # One face-down card each; a list (not a range), so the boxes' plain form
                # (boards/changes.py) is one marshal of builtins.
                "backs": [None] * (box["batch_count"] - (1 if box["locked"] else 0)),
                "last": revealed.get(i),
            }
        )
    return out


def bake_rows(rows: Sequence[Mapping[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """One results row per baker: the breakdown in the table's column order."""
    return [
        {
            "player": names[i],
            "cells": [row.get(key, 0) for key, _ in BREAKDOWN],
            "total": row.get("total", 0),
            "running": row.get("running", ""),
        }
        for i, row in enumerate(rows)
    ]


def night_rows(view: Mapping[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The night's standings: banked points, truffles, bonus, score, winner."""
    result = view.get("result") or {}
    winners = set(result.get("winners", []))
    rows = []
    for i, score in enumerate(result.get("scores", [])):
        rows.append(
            {
                "position": i,
                "player": names[i],
                "banked": result["banked"][i] if "banked" in result else "",
                "truffles": result["truffles"][i],
                "bonus": result["truffle_bonus"][i],
                "score": score,
                "winner": i in winners,
            }
        )
    return rows


def night_log(events: Sequence[Mapping[str, Any]]) -> AppendOnly:
    """The whole night's log, newest first: each bake, its picks, and what happened on each.

    Within a pick the events keep their order (deal, reveals, the owl's snatch, the bake's end).
    The log only grows, so the region's fingerprint is its length and newest event (AppendOnly):
    a push that changes nothing in it costs no walk through the night.
    """
    bakes: list[dict[str, Any]] = []
    for e in reversed(events):
        if not bakes or bakes[-1]["bake"] != e.get("bake"):
            bakes.append({"bake": e.get("bake"), "picks": []})
        picks = bakes[-1]["picks"]
        if not picks or picks[-1]["pick"] != e.get("pick"):
            picks.append({"pick": e.get("pick"), "events": []})
        picks[-1]["events"].append({"type": e.get("type", ""), "text": e.get("text", "")})
    for bake in bakes:
        for pick in bake["picks"]:
            pick["events"].reverse()
    return AppendOnly(bakes, (len(events), events[-1] if events else None))


def results_count(view: Mapping[str, Any]) -> int:
    """How many bakes have been scored: the results a baker can close."""
    return len(view.get("bakes", []))


def context(
    game: GameRow, view: View, legal: list[Action], me: SeatRow | None, seats: Sequence[SeatRow]
) -> dict[str, Any]:
    """Template context for the Midnight Bakery board of one viewer."""
    mine = me.position if me is not None else None
    all_boxes = boxes(view, seats, mine)
    names = [b["player"] for b in all_boxes]
    labelled = [f"{b['player']} ({b['name']})" for b in all_boxes]
    bakes = view.get("bakes", [])
    seen = me.results_seen if me is not None else len(bakes)
    batch = [
        {
            **card,
            "art": art(card["face"]),
            "keep": keep_json(card["id"]),
            "hint": hint(card["face"]),
        }
        for card in view.get("batch", [])
    ]
    waiting_names = [
        "you" if i == mine else names[i] for i in view.get("waiting_for", []) if i < len(names)
    ]
    unseen = bool(bakes) and len(bakes) > seen and not view["over"]
    return {
        "view": view,
        "boxes": [b for b in all_boxes if not b["me"]],
        "my_box": next((b for b in all_boxes if b["me"]), None),
        "batch": batch,
        "my_turn": bool(view.get("my_turn")) and bool(legal) and not unseen,
        "results_open": unseen,
        "can_peel": bool(view.get("can_peel")),
        "waiting_names": waiting_names,
        "breakdown_labels": [label for _, label in BREAKDOWN],
        "bake_results": (
            bake_rows(bakes[-1], names)
            if bakes and len(bakes) > seen and not view["over"]
            else None
        ),
        "results_count": results_count(view),
        "night": night_rows(view, labelled) if view["over"] else None,
        "bake_tables": [
            {"bake": n + 1, "rows": bake_rows(rows, labelled)} for n, rows in enumerate(bakes)
        ],
        "log": night_log(view.get("log", [])),  # the whole night (see night_log)
    }


def seat_results(result: Mapping[str, Any], position: int) -> dict[str, Any]:
    """A baker's own results: truffles, bonus, and each bake's breakdown."""
    return {
        "truffles": result["truffles"][position],
        "truffle_bonus": result["truffle_bonus"][position],
        "bakes": [rows[position] for rows in result.get("bakes", []) if position < len(rows)],
    }


def hands(state: State, seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
    """Each baker's batch at this moment, from their own view (the locked pick marked)."""
    out = []
    for seat in sorted(seats, key=lambda s: s.position or 0):
        own = engine.view(state, seat.position)
        cards = [{**c, "art": art(c["face"])} for c in own["batch"]]
        out.append({"player": player_name(seats, seat.position or 0), "cards": cards})
    return out


def move_words(
    before: State,
    after: State,
    seat: int,
    action: Action,
    seats: Sequence[SeatRow],
    eyes: int | None = None,
) -> tuple[str, list[str]]:
    """What the baker chose, and the public events it set off.

    Through another seat's eyes the choice itself stays face down, as it was at the table.
    """
    names = {c["id"]: c["name"] for c in engine.view(before, seat)["batch"]}
    who = player_name(seats, seat)
    if eyes is not None and eyes != seat:
        said = f"{who} made their choice, face down."
    elif action["type"] == "peel":
        first, second = (names.get(c, c) for c in action["cards"])
        said = f"{who} used the peel: a {first}, then a {second}."
    else:
        said = f"{who} chose a {names.get(action['card'], action['card'])}."
    seen = len(engine.view(before, None)["log"])
    events = [e["text"] for e in engine.view(after, None)["log"][seen:]]
    return said, events


def later_batches(view: View, taking: int) -> list[int]:
    """The most cards each later pick of this bake could hand this seat, in order, once it takes
    `taking` from its batch now: every batch with cards loses at least one a pick (each baker
    keeps one or more, the owl snatches one) and passes along the ring, and a baker whose batch
    is empty sits out. Read off the public batch sizes only (a rival's locked choice is hidden:
    a Peel spent on it now may leave a batch shorter still)."""
    me = view["seat"]
    if me is None:
        return []
    seats = view["seats"]
    step = 1 if view["direction"] == "next" else -1
    after = [max(0, seat["batch_count"] - 1) for seat in seats]
    after[me] = max(0, len(view["batch"]) - taking)
    sizes = []
    for passes in range(1, max(after) + 1):
        size = after[(me - step * passes) % len(seats)] - (passes - 1)
        if size > 0:
            sizes.append(size)
    return sizes


def later_cards(view: View, taking: int, peels: int) -> int:
    """The most cards this seat could still keep in this bake after this pick: one a later pick,
    and one more for each of its `peels` spent on a pick with two cards or more."""
    sizes = later_batches(view, taking)
    return len(sizes) + min(peels, sum(1 for n in sizes if n >= 2))


def peels_in_case(view: View) -> int:
    """The Peels in this seat's case now."""
    seat = view["seat"]
    case = view["seats"][seat]["case"] if seat is not None else []
    return sum(1 for card in case if card["face"] == "peel")


LAST_PICK = "This is your last pick of the bake"


def keep_why(view: View, face: str) -> str:
    """Why keeping one more of this face helps, read off the seat's own case (public) and the
    picks still to come this bake; it promises no card that no later pick can bring."""
    seat = view["seat"]
    case = view["seats"][seat]["case"] if seat is not None else []
    count = sum(1 for card in case if card["face"] == face)
    mine = view["seats"][seat] if seat is not None else None
    later = later_cards(view, 1, peels_in_case(view))
    if face == "croissant":
        if count % 2:
            return "It completes your croissant pair (4 points)."
        if later:
            return "It starts a croissant pair: a pair scores 4."
        return f"{LAST_PICK}: a croissant without its pair scores 0."
    if face == "macaron":
        have = count % 3 + 1
        if have == 3:
            return "It completes three macarons (9 points)."
        if later >= 3 - have:
            return f"Three macarons score 9: it makes {have} of 3."
        if not later:
            return f"{LAST_PICK}: macarons score only in threes, so it adds nothing."
        return "Macarons score only in threes, and too few cards can still come to you this bake."
    if face == "bun":
        gain = bun_points(count + 1) - bun_points(count)
        points = "1 point" if gain == 1 else f"{gain} points"
        return f"Buns grow in worth: your bun number {count + 1} adds {points}."
    if face in TART_VALUE:
        value = TART_VALUE[face]
        if mine is not None and mine["waiting_glazes"]:
            return f"A glaze waits in your case: this tart scores {value + 4}."
        if later:
            return f"It scores {value} now, {value + 4} once glazed."
        return f"It scores {value}: no glaze can come to it after your last pick of the bake."
    if face == "glaze":
        unglazed = any(c["face"] in TART_VALUE and not c["glazed"] for c in case)
        if unglazed:
            return "It glazes a tart in your case: +4 points."
        if later:
            return "It waits for your next tart: +4 points then."
        return f"{LAST_PICK} and no tart of yours waits for it: a glaze alone scores 0."
    if face in LOAVES:
        loaves = LOAVES[face]
        more = "1 loaf" if loaves == 1 else f"{loaves} loaves"
        return f"It adds {more} in the race for most loaves (most score 7)."
    if face == "truffle":
        have = mine["truffles"] if mine is not None else 0
        return f"At dawn most truffles score 7 and none -3; you have {have}."
    if face == "peel":
        if any(n >= 2 for n in later_batches(view, 1)):
            return "A Peel lets you take two cards at once on a later pick of this bake."
        return "A Peel scores 0, and no later pick of this bake holds two cards for it to take."
    return hint(face) or "The greedy bot scores it highest from what you can see."


def peel_why(view: View, faces: Sequence[str]) -> str:
    """Why spend the Peel on these two now, as the rules have it: it takes both from this batch,
    then leaves the game; one left unused scores 0 when the bake ends."""
    used = "Your Peel takes both from this batch, then leaves the game."
    if "peel" in faces:
        if any(n >= 2 for n in later_batches(view, 2)):
            return f"{used} The Peel you take stays in your case for a later pick of this bake."
        return f"{used} The Peel you take scores 0: no later pick of this bake holds two cards."
    if any(n >= 2 for n in later_batches(view, 1)):
        return f"{used} Two cards now are worth more than saving it for a later pick of this bake."
    return f"{used} No later pick of this bake holds two cards for it, and unused it scores 0."


def advise(view: View, action: Action) -> tuple[str, str]:
    """The suggested keep (or peel) in words and one line of why, from the seat's own view."""
    names = {c["id"]: c["name"] for c in view["batch"]}
    faces = {c["id"]: c["face"] for c in view["batch"]}
    if action["type"] == "peel":
        first, second = (names.get(c, "pastry") for c in action["cards"])
        return (
            f"Use your Peel: take the {first}, then the {second}.",
            peel_why(view, [faces.get(c, "") for c in action["cards"]]),
        )
    card = action["card"]
    return f"Keep the {names.get(card, 'pastry')}.", keep_why(view, faces.get(card, ""))


def stat_facts(view: Mapping[str, Any], result: Mapping[str, Any]) -> Facts:
    """The pastries kept (from the public log); at two bakers, whether the owl denied the
    truffle bonus, as the engine's result says."""
    facts: Facts = Counter()
    for event in view.get("log", []):
        if event.get("type") == "keep":
            for face in event.get("faces", []):
                facts["kept", face] += 1
    if result.get("owl_truffles") is not None:
        facts["owl", "nights"] += 1
        if result.get("owl_denied"):
            facts["owl", "denied"] += 1
    return facts


def stat_charts(counts: Counts) -> dict[str, Any]:
    """The Night Owl's denials, and the most kept pastries by name."""
    owl = counts.get("owl", {})
    nights, denied = owl.get("nights", 0), owl.get("denied", 0)
    return {
        "owl": {"nights": nights, "denied": denied, "percent": charts.percent(denied, nights)},
        "kept": charts.top_bars(counts.get("kept", {}), engine.face_name),
    }


def keep_control(action: Mapping[str, Any]) -> tuple[Press, ...]:
    """The batch's button that keeps this card (its id, quoted, sits in the button's value)."""
    return (Press(f"#batch-form button[value*='\"{action['card']}\"']"),)


# A short night for the guided first game: 30 cards deal one bake of ten picks to each of two
# bakers and the Night Owl, then the empty deck brings dawn (the engine's early end). No Peel:
# its two-tap keep is left for a real night.
LESSON_DECK = [
    *("croissant", "jam", "macaron", "truffle", "bun", "baguette-2", "croissant", "glaze"),
    *("macaron", "baguette-1"),
    *("croissant", "fruit", "macaron", "bun", "truffle", "baguette-3", "croissant", "bun"),
    *("baguette-2", "chocolate"),
    *("macaron", "truffle", "bun", "croissant", "glaze", "baguette-2", "fruit", "truffle"),
    *("baguette-3", "baguette-1"),
]

LESSON = Lesson(
    setup={"deck": LESSON_DECK},
    seed=20261204,
    bot="random",
    options={"passing": "alternate"},
    welcome=(
        "A short night: one bake of ten picks against one bot, while the Night Owl snatches"
        " a card each pick."
    ),
    scoring=(
        "Dawn: each case scored its pairs, threes, buns, tarts and loaves, then the truffle"
        " boxes paid 7 for the most and -3 for none."
    ),
    round_scored="The bake is scored: read how each case scored, then go back to the ovens.",
    control=keep_control,
    results_control="#region-results .results-card",
    close_control="#region-results form button[type='submit']",
)


class MidnightBakery(GameKind[State, View, Action]):
    """Simultaneous drafting for 2 to 8 bakers over one night of three bakes."""

    slug = "midnight-bakery"
    name = "Midnight Bakery"
    engine = engine
    bots = BOTS
    seat_names = ("Flour", "Sugar", "Butter", "Cream", "Spice", "Cocoa", "Honey", "Moon")
    min_players = 2
    max_players = 8
    options = (
        Option(
            name="passing",
            label="Passing",
            choices=(("alternate", "Alternate"), ("next", "Next")),
            default="alternate",
        ),
    )
    blurb = "Three bakes before dawn: keep one pastry, pass the rest."
    session = "night"
    regions = ("status", "results", "seats", "mine", "log")
    replay_regions = ("status", "results", "seats", "log")
    secret_moves = True
    demo_two_every = 3  # a night of two is where the Night Owl plays
    seat_chart_title = "Win rate by seat"
    seat_chart_blurb = "Seats pass to the next or previous seat; shared wins count for each winner."
    stats_template = "games/midnight-bakery/_stats.html"
    lesson = LESSON

    @property
    def quick_pitch(self) -> str:
        """The lobby's invitation to a quick night."""
        return "bake a night"

    def moment(self, view: Mapping[str, Any]) -> str:
        """A batch changes only when the pick or the bake moves on."""
        return f"{view['bake']}.{view['pick']}"

    def board(
        self,
        game: GameRow,
        view: View,
        legal: list[Action],
        me: SeatRow | None,
        seats: Sequence[SeatRow],
    ) -> dict[str, Any]:
        """The Midnight Bakery board of one viewer."""
        return context(game, view, legal, me, seats)

    def advise(self, view: View, action: Action) -> tuple[str, str]:
        """The pastry to keep, and why, from the seat's own batch and case."""
        return advise(view, action)

    def results_count(self, view: Mapping[str, Any]) -> int:
        """How many bakes have been scored."""
        return results_count(view)

    def seat_results(self, result: Mapping[str, Any], position: int) -> dict[str, Any]:
        """Truffles, bonus, and each bake's breakdown."""
        return seat_results(result, position)

    def seat_label(self, turn: int) -> str:
        """Seats keep their names all night (Flour acts first): the chart names them."""
        return self.seat_names[turn - 1]

    def stat_facts(self, view: Mapping[str, Any], result: Mapping[str, Any]) -> Facts:
        """Pastries kept, and the owl's denials."""
        return stat_facts(view, result)

    def stat_charts(self, counts: Counts) -> dict[str, Any]:
        """The owl's denials and the most kept pastries."""
        return stat_charts(counts)

    def hidden_hands(self, state: State, seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
        """Every batch at this moment."""
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
        """The pastry kept (or the peel's two), and the reveal it set off."""
        return move_words(before, after, seat, action, seats, eyes)
