"""The Midnight Bakery board of one viewer: the seats' boxes, the batch, a bake's results, the
night's standings and its log, from that seat's own view."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TypedDict, cast

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext_noop as N_

from games.engines.midnight_bakery import Action, View
from games.engines.midnight_bakery.shapes import BakeRow, Event, SeatView
from games.kinds.base import AppendOnly, GameRow, SeatRow
from games.kinds.midnight_bakery.hints import hint
from games.kinds.midnight_bakery.log import told

# The results' columns; the labels are translated as the board draws them (_bake_table.html).
BREAKDOWN = (
    ("croissant", N_("Croissants")),
    ("macaron", N_("Macarons")),
    ("bun", N_("Buns")),
    ("tart", N_("Tarts")),
    ("baguette", N_("Baguettes")),
)


def art(face: str) -> str:
    """The static path of a face's card art."""
    return f"cards/{face}.svg"


def keep_json(card_id: str) -> str:
    """The keep action for one card, as the JSON a button posts."""
    return json.dumps({"type": "keep", "card": card_id})


def player_names(view: View, seats: Sequence[SeatRow]) -> list[str]:
    """The display name at each seat position of the view (the owl by its own name)."""
    by_position = {s.position: s.user.username for s in seats if s.position is not None}
    return [
        by_position.get(i, box["name"]) if not box["owl"] else box["name"]
        for i, box in enumerate(view["seats"])
    ]


class Reveal(TypedDict):
    """A seat's part of the latest reveal (see last_reveal)."""

    cards: list[str]
    peel: bool
    newest: bool
    text: str


def last_reveal(view: View) -> dict[int, Reveal]:
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
    language = get_language()
    texts: dict[int, list[str]] = {}
    filed: dict[int, list[str]] = {}
    peels: dict[int, bool] = {}
    for e in events[start:]:
        if e["type"] not in ("keep", "snatch") or "seat" not in e:
            continue
        cards: Sequence[str | None] = e.get("cards") or [e.get("card")]
        seat = e["seat"]
        texts.setdefault(seat, []).append(told(e, view, language))
        filed.setdefault(seat, []).extend(c for c in cards if c)
        peels[seat] = peels.get(seat, False) or bool(e.get("peel"))
    return {
        seat: {"cards": filed[seat], "peel": peels[seat], "newest": newest, "text": " ".join(said)}
        for seat, said in texts.items()
    }


class Box(SeatView):
    """A seat's box as the board shows it: the public box and where it stands."""

    position: int
    player: str
    me: bool
    leader: bool
    empty_box: bool
    choosing: bool
    backs: list[None]
    last: Reveal | None


def boxes(view: View, seats: Sequence[SeatRow], mine: int | None) -> list[Box]:
    """Every seat's public box with its truffle ring (gold leader, red empty baker), and its part
    of the latest reveal (`last`)."""
    names = player_names(view, seats)
    most = max((box["truffles"] for box in view["seats"]), default=0)
    waiting = set(view.get("waiting_for", []))
    revealed = last_reveal(view)
    out: list[Box] = []
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


def bake_rows(rows: Sequence[BakeRow], names: list[str]) -> list[dict[str, object]]:
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


class NightRow(TypedDict):
    """A baker's line of the night's standings."""

    position: int
    player: str
    banked: int | str  # "" when the result holds no banked points
    truffles: int
    bonus: int
    score: int
    winner: bool


def night_rows(view: View, names: list[str]) -> list[NightRow]:
    """The night's standings: banked points, truffles, bonus, score, winner."""
    result = view.get("result")
    if result is None:
        return []
    winners = set(result.get("winners", []))
    rows: list[NightRow] = []
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


class LogLine(TypedDict):
    """One event of the night's log, in words."""

    type: str
    text: str


class LogPick(TypedDict):
    """One pick of the night's log and what happened on it."""

    pick: int | None
    events: list[LogLine]


class LogBake(TypedDict):
    """One bake of the night's log and its picks."""

    bake: int | None
    picks: list[LogPick]


def night_log(view: View) -> AppendOnly:
    """The whole night's log, newest first: each bake, its picks, and what happened on each.

    Within a pick the events keep their order (deal, reveals, the owl's snatch, the bake's end).
    The log only grows, so the region's fingerprint is its length and newest event (AppendOnly):
    a push that changes nothing in it costs no walk through the night. Each event in the words of
    the language active (log.py).
    """
    events: Sequence[Event] = view.get("log", [])
    language = get_language()
    bakes: list[LogBake] = []
    for e in reversed(events):
        if not bakes or bakes[-1]["bake"] != e.get("bake"):
            bakes.append({"bake": e.get("bake"), "picks": []})
        picks = bakes[-1]["picks"]
        if not picks or picks[-1]["pick"] != e.get("pick"):
            picks.append({"pick": e.get("pick"), "events": []})
        picks[-1]["events"].append({"type": e.get("type", ""), "text": told(e, view, language)})
    for bake in bakes:
        for pick in bake["picks"]:
            pick["events"].reverse()
    return AppendOnly(bakes, (len(events), events[-1] if events else None))


def results_count(view: View) -> int:
    """How many bakes have been scored: the results a baker can close."""
    return len(view.get("bakes", []))


def context(
    game: GameRow, view: View, legal: list[Action], me: SeatRow | None, seats: Sequence[SeatRow]
) -> dict[str, object]:
    """Template context for the Midnight Bakery board of one viewer."""
    mine = me.position if me is not None else None
    all_boxes = boxes(view, seats, mine)
    names = [b["player"] for b in all_boxes]
    labelled = [f"{b['player']} ({b['name']})" for b in all_boxes]
    bakes = view.get("bakes", [])
    seen = me.results_seen if me is not None else len(bakes)
    language = get_language()
    batch = [
        {
            **card,
            "art": art(card["face"]),
            "keep": keep_json(card["id"]),
            "hint": hint(card["face"], language),
        }
        for card in view.get("batch", [])
    ]
    waiting_names = [
        pgettext("waiting for", "you") if i == mine else names[i]
        for i in view.get("waiting_for", [])
        if i < len(names)
    ]
    unseen = bool(bakes) and len(bakes) > seen and not view["over"]
    return {
        "view": view,
        "boxes": [b for b in all_boxes if not b["me"]],
        "my_box": next((b for b in all_boxes if b["me"]), None),
        "batch": batch,
        # Results still open never stand between a person and the pick whose time runs: the
        # batch is offered beside them, and the pick puts them away (services.play: seen).
        "my_turn": bool(view.get("my_turn")) and bool(legal),
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
        "log": night_log(view),  # the whole night (see night_log)
    }


def seat_results(result: Mapping[str, object], position: int) -> dict[str, object]:
    """A baker's own results: truffles, bonus, and each bake's breakdown."""
    truffles = cast(list[int], result["truffles"])
    bonus = cast(list[int], result["truffle_bonus"])
    bakes = cast(list[list[BakeRow]], result.get("bakes", []))
    return {
        "truffles": truffles[position],
        "truffle_bonus": bonus[position],
        "bakes": [rows[position] for rows in bakes if position < len(rows)],
    }
