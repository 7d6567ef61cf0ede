"""The soak's visits to tables: a quick game against bots played to its end, and turn-based
tables (made, joined, started, and a few moves on each visit while the others move between).

A table is sat at as its page does: the page loaded, its socket opened, the board's pushes
swapped in and the slow poll running (bench.web.client.Table); moves are what the page offers
(bench.web.players), sent as live.js sends them.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

from bench.soak.people import Config, Soak, Someone, browse, button_to, press, submit, took
from bench.web.client import TABLE_URL, Person, Policy, Table, heal, play, send
from bench.web.page import inputs
from bench.web.players import POLICIES

QUICK = "/games/quick/"
QUICK_GAMES = "quick games"
TURN_BASED = "turn-based"
TURN_PACE = "day1"  # Turn-based: 1 day a move, 2 days bank (games.models.Game.Pace)
TURN_MOVES = 4  # moves a person makes at a turn-based table in one visit, at most
TURN_TABLES = 2  # turn-based tables a person keeps going
WAIT_VISITS = 2  # visits a host waits for an invited friend before seating a bot instead
QUIET = 3.0  # s without anything to press that ends a visit's moves (a bot answers sooner)
KINDS = {"Midnight Bakery": "midnight-bakery", "Cakehalla": "cakehalla"}


async def sit(me: Someone, game_id: int, soak: Soak, visit: str, cfg: Config) -> Table:
    """Open the table's page and its socket, as a browser tab does on load."""
    person = me.person
    if person.url != f"/games/{game_id}/":  # else its page is shown already (a Start pressed)
        await person.open(f"/games/{game_id}/")
    table = Table([person], kind_of(person), soak.tally(visit), cfg.timeout)
    table.game_id = game_id
    person.ended = f"/games/{game_id}/replay/"
    person.pushes = []
    person.last_poll = 0.0
    await person.connect()
    table.readers.append(asyncio.create_task(table.read(0)))
    table.readers.append(asyncio.create_task(table.poll(0)))
    return table


def kind_of(person: Person) -> str:
    """The game of the table shown (its page's title: "Cakehalla #12 · Bakehouse")."""
    title = person.page.root.findtext(".//title") or ""
    found = next((slug for name, slug in KINDS.items() if title.startswith(name)), None)
    if found is None:
        raise RuntimeError(f"a table page of no known game: {title!r}")
    return found


# --- quick games ------------------------------------------------------------------------------


async def quick_game(person: Person, game: str) -> int:
    """The lobby's quick-game button for this game: the new table's id."""
    await person.open("/")
    form = next(
        (
            e
            for e in person.page.root.iter("form")
            if e.attrs.get("action") == QUICK
            and any(i.attrs.get("value") == game for i in e.iter("input"))
        ),
        None,
    )
    if form is None:
        raise RuntimeError(f"no quick-game form for {game} in the lobby")
    answer = await person.http.post(QUICK, data=inputs(form), headers={"Referer": person.base})
    found = TABLE_URL.search(answer.headers.get("location", ""))
    if answer.status_code != 302 or found is None:
        raise RuntimeError(f"quick game refused ({answer.status_code})")
    return int(found.group(1))


async def quick_games(me: Someone, soak: Soak, cfg: Config, until: float) -> None:
    """A quick game against bots (the two games by turns), played to its results."""
    game = list(KINDS.values())[soak.counted(QUICK_GAMES, "started") % len(KINDS)]
    game_id = await quick_game(me.person, game)
    soak.count(QUICK_GAMES, "started")
    table = await sit(me, game_id, soak, QUICK_GAMES, cfg)
    try:
        rng = me.game_rng(cfg.seed)
        stop = min(until, time.perf_counter() + 60 * cfg.game_minutes)
        await play(me.person, table, POLICIES[game], rng, cfg.think, stop)
        if table.over():
            soak.count(QUICK_GAMES, "finished")
            soak.count(QUICK_GAMES, game)
        elif time.perf_counter() < until:
            soak.error(QUICK_GAMES, "game not over in time")
    finally:
        await table.leave()


# --- turn-based tables ------------------------------------------------------------------------


@dataclass
class Listed:
    """A turn-based table in "Your games": whether it waits on the person's move, or for players."""

    game_id: int
    your_move: bool
    waiting: bool


def turn_based_tables(person: Person) -> list[Listed]:
    """The turn-based tables the "Your games" page shows (templates/games/_your_games.html)."""
    found = []
    for li in person.page.root.iter("li"):
        text = li.text_content()
        if "your-table" not in (li.attrs.get("class") or "") or "turn-based" not in text:
            continue
        your_move = any(e.attrs.get("data-your-move") == "yes" for e in li.iter())
        found.append(Listed(int(li.attrs["data-game"]), your_move, "waiting for players" in text))
    return found


async def turn_based(me: Someone, soak: Soak, cfg: Config, until: float) -> None:
    """A visit to "Your games": the moves due at the first table waiting on them, else a table
    they host that waits for players, else a new table (up to TURN_TABLES)."""
    await browse(me.person, "/games/mine/")
    listed = turn_based_tables(me.person)
    due = next((t for t in listed if t.your_move), None)
    if due is not None:
        await take_turns(me, due.game_id, soak, cfg, until)
        return
    for waiting in (t for t in listed if t.waiting):
        if await waiting_room(me, waiting.game_id, soak):
            await take_turns(me, waiting.game_id, soak, cfg, until)
            return
    if len(listed) >= TURN_TABLES:
        soak.count(TURN_BASED, "nothing due")
        return
    game_id = await new_table(me, soak)
    if await invite_a_friend(me, soak):
        return  # the table waits for them (waiting_room, on a later visit)
    if await seat_a_bot(me, soak):
        await take_turns(me, game_id, soak, cfg, until)


async def new_table(me: Someone, soak: Soak) -> int:
    """The new-table form, filled as a person does: a game by turns, two seats, turn-based."""
    person = me.person
    await person.open("/games/new/")
    form = next((f for f in person.page.root.iter("form") if not f.attrs.get("action")), None)
    if form is None:
        raise RuntimeError("no new-table form")
    game = list(KINDS.values())[soak.counted(TURN_BASED, "made") % len(KINDS)]
    chosen = {"kind": game, "capacity": "2", "pace": TURN_PACE}
    for field in form.iter("input", "select"):
        name = field.attrs.get("name")
        if name in chosen:  # as the person sets the field
            field.attrs["value"] = chosen[name]
            for option in field.iter("option"):
                option.attrs.pop("selected", None)
                if option.attrs.get("value") == chosen[name]:
                    option.attrs["selected"] = "selected"
    landed = await submit(person, form)
    found = TABLE_URL.search(landed)
    if found is None:
        raise RuntimeError(f"the new table's form led to {landed}")
    soak.count(TURN_BASED, "made")
    return int(found.group(1))


async def invite_a_friend(me: Someone, soak: Soak) -> bool:
    """On the new table's page: invite a friend from its panel (they are notified), if the
    person has one; the table then waits for them. Whether someone was invited."""
    person = me.person
    panel = person.page.find("invite-friends")
    forms = [f for f in panel.iter("form") if "hx-post" in f.attrs] if panel is not None else []
    if not forms:
        return False
    answer = await press(person, me.rng.choice(forms), target="invite-friends")
    if not took(answer, soak, TURN_BASED, "invite"):
        return False
    panel = person.page.find("invite-friends")  # the panel again, with the outcome in words
    said = list(panel.iter("p")) if panel is not None else []
    refusal = next((p for p in said if "error" in (p.attrs.get("class") or "").split()), None)
    if refusal is not None:
        soak.refused(TURN_BASED, f"invite: {refusal.text_content().strip()}")
        return False
    soak.count(TURN_BASED, "invited a friend")
    return True


async def seat_a_bot(me: Someone, soak: Soak) -> bool:
    """The host's "Add a ... bot" and Start, on the table's page; whether it started."""
    person = me.person
    adds = [e for e in person.page.root.walk() if e.attrs.get("hx-post", "").endswith("/bots/add/")]
    if not adds:
        raise RuntimeError("no Add a bot button for the host")
    if not took(await press(person, me.rng.choice(adds)), soak, TURN_BASED, "add a bot"):
        return False
    return await start(me, soak, "started against a bot")


async def start(me: Someone, soak: Soak, what: str) -> bool:
    """The host's Start button; whether the table started."""
    button = button_to(me.person.page, "/start/")
    if button is None:
        raise RuntimeError("no Start button for the host")
    if not took(await press(me.person, button), soak, TURN_BASED, "start"):
        return False
    soak.count(TURN_BASED, what)
    return True


async def waiting_room(me: Someone, game_id: int, soak: Soak) -> bool:
    """A table the person sits at that waits for players: its host starts it once the invited
    friend sat down, or seats a bot after WAIT_VISITS visits; a guest waits. Whether it started."""
    person = me.person
    await person.open(f"/games/{game_id}/")
    if button_to(person.page, "/start/") is None:
        soak.count(TURN_BASED, "waited for the host")
        return False
    if not any("empty" in (li.attrs.get("class") or "") for li in person.page.root.iter("li")):
        return await start(me, soak, "started against a friend")
    me.waited[game_id] += 1
    if me.waited[game_id] <= WAIT_VISITS:
        soak.count(TURN_BASED, "waited for a friend")
        return False
    return await seat_a_bot(me, soak)


async def take_turns(me: Someone, game_id: int, soak: Soak, cfg: Config, until: float) -> None:
    """At a running turn-based table: the page and its socket, the moves due (TURN_MOVES at
    most, while a bot answers), the "next game" slot as the page asks for it, then away."""
    person = me.person
    table = await sit(me, game_id, soak, TURN_BASED, cfg)
    try:
        await next_game(person, game_id)
        stop = min(until, time.perf_counter() + 60 * cfg.game_minutes)
        policy = POLICIES[table.game]
        made = await play_some(person, table, policy, me.game_rng(cfg.seed), cfg.think, stop)
        soak.count(TURN_BASED, "visits with moves" if made else "visits without a move")
        await next_game(person, game_id)
        if table.over():
            soak.count(TURN_BASED, "finished")
    finally:
        await table.leave()


async def next_game(person: Person, game_id: int) -> None:
    """The page's "Next game waiting on you" slot (asked on load and after each swap)."""
    answer = await person.http.get(f"/games/{game_id}/next/", headers={"HX-Request": "true"})
    answer.raise_for_status()


async def play_some(
    person: Person, table: Table, policy: Policy, rng: random.Random, think: float, stop: float
) -> int:
    """Press what the page offers until TURN_MOVES moves were taken, nothing was left to press
    for QUIET seconds (the other person's move), the game ended, or `stop`; the moves made."""
    tally = table.tally
    before = tally.accepted[table.game_id]
    measures = []
    while tally.accepted[table.game_id] - before < TURN_MOVES and not table.over():
        left = stop - time.perf_counter()
        if left <= 0:
            break
        person.changed.clear()
        if person.page.gap:
            await heal(person, tally)
        if person.waiting_for_push() or person.idle() or policy(person.page, rng) is None:
            try:
                await asyncio.wait_for(person.changed.wait(), min(QUIET, left))
            except TimeoutError:
                break
            continue
        await asyncio.sleep(min(rng.expovariate(1 / think), left))
        post = policy(person.page, rng)
        if post is not None:
            measure = await send(person, table, post)
            if measure is not None:
                measures.append(measure)
    await asyncio.gather(*measures, return_exceptions=True)
    return tally.accepted[table.game_id] - before
