"""The soak's guided first games: from a game's How to play page to its tutorial table, where the
person presses what each step points at, as the page's pointer shows it, to the end.

The step (templates/tutorial/_step.html) names the board's controls of one move in
data-presses, [[CSS selector, done selector], ...]; /static/js/tutorial.js asks for it again after
each swap of the board. A person here reads the move from those selectors as the learner reads
the pointer: a button by the words of its value (`button[value*='"card":"x"']`), Cakehalla's
ingredients tapped before Take (`[data-ing='cocoa']`) or put back (`[data-back='cocoa']`), and
the results' close button. A step whose control is not on the board is counted as an error (the
pointer would point at nothing); the person then plays what the board offers.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter

from bench.soak.people import Config, Soak, Someone, browse, form_to, submit
from bench.soak.tables import KINDS, sit
from bench.web.client import TABLE_URL, Person, Table, heal, send
from bench.web.page import buttons, form_post
from bench.web.players import POLICIES, Post, close_results, compact, play_forms

TUTORIALS = "tutorials"
VALUE_PART = re.compile(r"\[value\*='([^']*)'\]")
INGREDIENT = re.compile(r"\[data-ing='([^']+)'\]")
PUT_BACK = re.compile(r"\[data-back='([^']+)'\]")
RESULTS = "#region-results"


async def tutorial(me: Someone, soak: Soak, cfg: Config, until: float) -> None:
    """A game's How to play page (the two games by turns), its "Learn by playing" link, the
    learn page's Start (or straight back to the person's unfinished tutorial), then the steps."""
    person = me.person
    slug = list(KINDS.values())[soak.visits[TUTORIALS] % len(KINDS)]
    await browse(person, f"/games/rules/{slug}/")
    learn = f"/games/learn/{slug}/"
    if not any(a.attrs.get("href") == learn for a in person.page.root.iter("a")):
        raise RuntimeError(f"no Learn by playing link on {slug}'s How to play")
    landed = await browse(person, learn)
    if TABLE_URL.search(landed) is None:
        form = form_to(person.page, learn)
        if form is None:
            raise RuntimeError(f"no Start button on {learn}")
        landed = await submit(person, form)
        soak.count(TUTORIALS, "started")
    else:
        soak.count(TUTORIALS, "resumed")
    found = TABLE_URL.search(landed)
    if found is None:
        raise RuntimeError(f"{learn} led to {landed}")
    table = await sit(me, int(found.group(1)), soak, TUTORIALS, cfg)
    try:
        stop = min(until, time.perf_counter() + 60 * cfg.game_minutes)
        if await walk(person, table, soak, me.game_rng(cfg.seed), cfg, stop):
            soak.count(TUTORIALS, "finished")
    finally:
        await table.leave()


async def walk(
    person: Person, table: Table, soak: Soak, rng: random.Random, cfg: Config, stop: float
) -> bool:
    """Follow the steps until the last one ("You finished the tutorial") or `stop`; whether the
    tutorial was finished. The step is asked for again whenever the board shown moved."""
    asked_at = person.page.version()  # the page came with the step of its board
    measures = []
    try:
        while (left := stop - time.perf_counter()) > 0:
            person.changed.clear()
            if person.page.gap:
                await heal(person, table.tally)
            shown = person.page.version()
            step = person.page.find("tutorial-step")
            if step is None:
                raise RuntimeError("a tutorial table without its step")
            if "done" in (step.attrs.get("class") or "").split():
                return True
            if shown != asked_at:
                asked_at = shown
                await read_step(person, step.attrs["data-url"])
                soak.count(TUTORIALS, "steps read")
                continue
            post = next_press(person, dict(step.attrs), table.game, soak, rng)
            if post is None or person.waiting_for_push():
                try:
                    await asyncio.wait_for(person.changed.wait(), min(cfg.timeout, left))
                except TimeoutError:
                    asked_at = None  # nothing came: ask for the step again
                continue
            await asyncio.sleep(min(rng.expovariate(1 / cfg.think), left))
            measure = await send(person, table, post)
            if measure is not None:
                measures.append(measure)
    finally:
        await asyncio.gather(*measures, return_exceptions=True)
    return False


async def read_step(person: Person, url: str) -> None:
    """Ask for the step now (tutorial.js, after a swap); it replaces the one shown."""
    answer = await person.http.get(url, headers={"HX-Request": "true"})
    answer.raise_for_status()
    if answer.status_code == 200:
        person.page.apply(answer.text)


def next_press(
    person: Person, step: dict[str, str], kind: str, soak: Soak, rng: random.Random
) -> Post | None:
    """The move the step points at on the board shown (None: a step of another board, or one
    that names nothing to press)."""
    page = person.page
    presses = [target for target, _ in json.loads(step.get("data-presses") or "[]")]
    if not presses or step.get("data-version") != str(page.version()):
        return None
    post = pointed_at(person, presses)
    if post is not None:
        soak.count(TUTORIALS, "steps followed")
        return post
    soak.error(TUTORIALS, f"a step's control not on the board: {presses[-1]}")
    return POLICIES[kind](page, rng)


def pointed_at(person: Person, presses: list[str]) -> Post | None:
    """What the step's taps post: the results closed, an ingredients' take or put-back, or the
    button whose value holds the words the last selector names."""
    page = person.page
    last = presses[-1]
    if last.startswith(RESULTS):
        return close_results(page)
    if "[data-take]" in last or "[data-return]" in last:
        form = page.find("market-form" if "[data-take]" in last else "return-form")
        if form is None:
            return None
        data = form_post(page, form, None)
        if "[data-take]" in last:
            taken = [m.group(1) for t in presses if (m := INGREDIENT.search(t))]
            data["action"] = compact({"type": "take", "ingredients": taken})
        else:
            back = Counter(m.group(1) for t in presses if (m := PUT_BACK.search(t)))
            data["action"] = compact({"type": "return", "ingredients": dict(back)})
        return Post(form.attrs["hx-post"], data, move=True)
    words = VALUE_PART.findall(last)
    for form in play_forms(page):
        for button in buttons(form):
            value = button.attrs.get("value", "")
            if words and all(w in value for w in words):
                return Post(form.attrs["hx-post"], form_post(page, form, button), move=True)
    return None
