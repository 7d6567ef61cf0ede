"""What a person presses on each game's board, read from the page as the browser shows it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

from bench.web.page import Element, Page, buttons, form_post


@dataclass
class Post:
    """One hx-post a person makes: its URL, its form values, and whether it is a move."""

    url: str
    data: dict[str, str]
    move: bool


def compact(value: object) -> str:
    """JSON as the page's script writes it (JSON.stringify)."""
    return json.dumps(value, separators=(",", ":"))


def play_forms(page: Page) -> list[Element]:
    """The forms that post a move."""
    return [f for f in page.forms() if f.attrs["hx-post"].endswith("/play/")]


def close_results(page: Page) -> Post | None:
    """Midnight Bakery's "Back to the ovens" after a bake's results."""
    for form in page.forms():
        if form.attrs["hx-post"].endswith("/results/close/"):
            return Post(form.attrs["hx-post"], form_post(page, form, None), move=False)
    return None


def midnight_bakery(page: Page, rng: random.Random) -> Post | None:
    """Close the results if shown, else keep a random pastry of the batch (Peel: Keep one)."""
    closing = close_results(page)
    if closing is not None:
        return closing
    form = page.find("batch-form")
    if form is None or not page.your_move():
        return None
    if "data-peel" in form.attrs:
        picks = [e.attrs["data-pick"] for e in form.walk() if "data-pick" in e.attrs]
        if not picks:
            return None
        data = form_post(page, form, None)
        data["action"] = compact({"type": "keep", "card": rng.choice(picks)})
        return Post(form.attrs["hx-post"], data, move=True)
    choices = [b for b in buttons(form) if b.attrs.get("name") == "action"]
    if not choices:
        return None
    return Post(form.attrs["hx-post"], form_post(page, form, rng.choice(choices)), move=True)


def action_type(button: Element) -> str:
    """The type of the action a button posts ("buy", "reserve", ...)."""
    try:
        return str(json.loads(button.attrs.get("value", "")).get("type", ""))
    except (ValueError, AttributeError):
        return ""


def cakehalla_return(page: Page, form: Element, rng: random.Random) -> Post | None:
    """Put back the excess ingredients, chosen at random among those held (the steppers)."""
    excess = int(form.attrs.get("data-excess", "0") or 0)
    pool = [
        e.attrs["data-back"]
        for e in form.walk()
        if "data-back" in e.attrs
        for _ in range(int(e.attrs.get("data-held", "0") or 0))
    ]
    if excess <= 0 or len(pool) < excess:
        return None
    chosen = rng.sample(pool, excess)
    back = {name: chosen.count(name) for name in dict.fromkeys(pool) if name in chosen}
    data = form_post(page, form, None)
    data["action"] = compact({"type": "return", "ingredients": back})
    return Post(form.attrs["hx-post"], data, move=True)


def cakehalla_take(page: Page, form: Element, rng: random.Random) -> Post | None:
    """Tap ingredients of a legal take (the market's data-takes), then Take."""
    takes = json.loads(form.attrs.get("data-takes", "[]") or "[]")
    if not takes or not any("data-take" in e.attrs for e in form.walk()):
        return None
    data = form_post(page, form, None)
    data["action"] = compact({"type": "take", "ingredients": list(rng.choice(takes))})
    return Post(form.attrs["hx-post"], data, move=True)


def cakehalla(page: Page, rng: random.Random) -> Post | None:
    """Put back, choose a visitor, buy, take, reserve, or pass, as the board offers them."""
    if not page.your_move():
        return None
    returning = page.find("return-form")
    if returning is not None:
        return cakehalla_return(page, returning, rng)
    pressed: dict[str, list[tuple[Element, Element]]] = {}
    market = None
    for form in play_forms(page):
        if form.attrs.get("id") == "market-form":
            market = form
            continue
        for button in buttons(form):
            if button.attrs.get("name") == "action":
                pressed.setdefault(action_type(button), []).append((form, button))
    for kind, odds in (("customer", 1.0), ("buy", 0.9)):
        if pressed.get(kind) and rng.random() < odds:
            form, button = rng.choice(pressed[kind])
            return Post(form.attrs["hx-post"], form_post(page, form, button), move=True)
    take = cakehalla_take(page, market, rng) if market is not None else None
    if take is not None and rng.random() < 0.85:
        return take
    for kind in ("reserve", "buy"):
        if pressed.get(kind):
            form, button = rng.choice(pressed[kind])
            return Post(form.attrs["hx-post"], form_post(page, form, button), move=True)
    if take is not None:
        return take
    rest = [pair for kind, pairs in pressed.items() for pair in pairs]
    if rest:
        form, button = rng.choice(rest)
        return Post(form.attrs["hx-post"], form_post(page, form, button), move=True)
    return None


POLICIES: dict[str, Callable[[Page, random.Random], Post | None]] = {
    "midnight-bakery": midnight_bakery,
    "cakehalla": cakehalla,
}
