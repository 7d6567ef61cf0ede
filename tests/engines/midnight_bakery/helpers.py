"""Small helpers for driving Midnight Bakery nights with custom decks in tests."""

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, cast

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.cards import face_of

Action = dict[str, Any]
Step = str | tuple[str, str]
Plan = Sequence[Step]
QUOTED_WORD = re.compile(r'"([a-z0-9-]+)"')


def night(bakers: int, deck: list[str], passing: str = "alternate", seed: int = 0) -> mb.State:
    """A night with a custom deck, top first, no shuffle."""
    return mb.new_game(bakers, seed=seed, options={"passing": passing}, setup={"deck": deck})


def keep(card: str) -> Action:
    """A keep action."""
    return {"type": "keep", "card": card}


def peel(first: str, second: str) -> Action:
    """A Peel action, filed in the order given."""
    return {"type": "peel", "cards": [first, second]}


def card_with(batch: Iterable[str], face: str, skip: Iterable[str] = ()) -> str:
    """The first card of a face in a batch, leaving out cards already chosen."""
    taken = set(skip)
    for card in batch:
        if face_of(card) == face and card not in taken:
            return card
    raise AssertionError(f"no {face} in {list(batch)}")


def step_for(batch: tuple[str, ...], step: Step) -> Action:
    """The action that keeps one face, or peels two faces, from a batch."""
    if isinstance(step, str):
        return keep(card_with(batch, step))
    first = card_with(batch, step[0])
    return peel(first, card_with(batch, step[1], skip=[first]))


def pick(state: mb.State, actions: dict[int, Action]) -> mb.State:
    """Lock the given actions; every other active baker keeps the first card of their batch."""
    active = mb.active_seats(state)
    assert set(actions) <= set(active), f"{sorted(actions)} are not all active in {active}"
    for seat in active:
        action = actions.get(seat) or keep(state.batches[seat][0])
        state = mb.apply_action(state, seat, action)
    return state


def pick_faces(state: mb.State, steps: dict[int, Step]) -> mb.State:
    """A pick where the named seats keep (or peel) by face and everyone else keeps first."""
    actions = {seat: step_for(state.batches[seat], step) for seat, step in steps.items()}
    return pick(state, actions)


def play_out_bake(state: mb.State) -> mb.State:
    """Everyone keeps their first card until the bake (or the night) ends."""
    bake = state.bake
    while not state.over and state.bake == bake:
        state = pick(state, {})
    return state


def symmetric(bakers: int, plan: Plan) -> list[str]:
    """A deck where every baker's batch holds exactly the plan's cards, in plan order."""
    faces: list[str] = []
    for step in plan:
        faces += [step] if isinstance(step, str) else list(step)
    return faces * bakers


def play_plan(state: mb.State, plan: Plan) -> Iterator[mb.State]:
    """Every baker follows the same plan, pick by pick; yields the state after each reveal."""
    for step in plan:
        state = pick_faces(state, {seat: step for seat in mb.active_seats(state)})
        yield state


def case_faces(state: mb.State, seat: int) -> list[str]:
    """The faces in a seat's case, in the order filed."""
    return [face_of(card) for card in state.cases[seat]]


def glazed_faces(state: mb.State, seat: int) -> list[str]:
    """The faces of a seat's glazed tarts, as its view shows them."""
    case = mb.view(state, seat)["seats"][seat]["case"]
    return [card["face"] for card in case if card["glazed"]]


def crafted(bakers: int, bake: int = 1, **fields: Any) -> mb.State:
    """A mid-night state written by hand through ``load``: an empty deck plus the given fields."""
    data = cast(dict[str, Any], mb.dump(mb.new_game(bakers, seed=7)))  # written as plain JSON
    seats = len(data["batches"])
    data.update(
        deck=[],
        bake=bake,
        batches=[[] for _ in range(seats)],
        cases=[[] for _ in range(seats)],
        glazed=[[] for _ in range(seats)],
        waiting=[[] for _ in range(seats)],
        truffles=[[] for _ in range(seats)],
        bakes=[[{"total": 0}] * bakers] * (bake - 1),
        log=[],
    )
    for name, value in fields.items():
        data[name] = [list(item) for item in value] if name != "banked" else list(value)
    return mb.load(data)


def strings_in(data: Any) -> set[str]:
    """Every string anywhere in JSON-ready data, keys included."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        found: set[str] = set()
        for key, value in data.items():
            found |= strings_in(key) | strings_in(value)
        return found
    if isinstance(data, list | tuple):
        return set().union(*(strings_in(item) for item in data)) if data else set()
    return set()


def ints_in(data: Any) -> set[int]:
    """Every int anywhere in JSON-ready data."""
    if isinstance(data, bool):
        return set()
    if isinstance(data, int):
        return {data}
    if isinstance(data, dict):
        return set().union(set(), *(ints_in(v) for v in data.values()))
    if isinstance(data, list | tuple):
        return set().union(set(), *(ints_in(item) for item in data))
    return set()


def hidden_from(state: mb.State, seat: int | None) -> set[str]:
    """Card ids this seat must not see: the deck and every batch but its own."""
    mine = seat if seat is not None and 0 <= seat < state.bakers else None
    hidden = set(state.deck)
    for other, batch in enumerate(state.batches):
        if other != mine:
            hidden.update(batch)
    return hidden


def assert_view_keeps_secrets(state: mb.State, seat: int | None) -> None:
    """The view is JSON, shows only its own batch, and holds no hidden card or the stream."""
    shown = mb.view(state, seat)
    text = json.dumps(shown)
    leaked = set(QUOTED_WORD.findall(text)) & hidden_from(state, seat)
    assert not leaked, f"seat {seat} sees {sorted(leaked)}"
    assert str(state.rng) not in text
    mine = state.batches[seat] if seat is not None and 0 <= seat < state.bakers else ()
    assert [card["id"] for card in shown["batch"]] == list(mine)
