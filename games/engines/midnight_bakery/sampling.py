"""What a seat cannot see, dealt at random from what it can: the master's determinizations.

A seat sees its own batch, every case and truffle box, how many cards each other batch and
the deck hold, and the log of every card kept or snatched. The cards it has not seen are the
night's deck less all of those; a determinization deals them at random into the other batches
(by their counts) and the deck. Nothing here reads a State: only the View.

The view does not show a batch the seat has passed on, but the seat saw it: given its memory
(the faces of its own batch at each earlier pick of this bake, which its earlier views showed),
each batch it passed is known as it is now, less what the log says later holders took from it.
Without a memory those batches are dealt from the unseen cards like any other.
"""

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from games.engines.midnight_bakery.cards import standard_faces
from games.engines.midnight_bakery.playout import Case, Night
from games.engines.midnight_bakery.shapes import SeatView, View

# What a seat remembers of this bake: the faces of its own batch at each earlier pick.
Memory = Mapping[int, Sequence[str]]


def remembered(views: Iterable[View]) -> dict[int, list[str]]:
    """A seat's memory of the current bake from its own earlier views (the last view given sets
    the bake): the faces of its batch at each pick it saw."""
    shown = list(views)
    if not shown:
        return {}
    bake = shown[-1]["bake"]
    return {
        v["pick"]: [card["face"] for card in v["batch"]]
        for v in shown
        if v["bake"] == bake and v["batch"]
    }


def taken_this_bake(view: View) -> dict[tuple[int, int], list[str]]:
    """What each seat took at each pick of this bake, from the log: (pick, seat) -> faces."""
    taken: dict[tuple[int, int], list[str]] = {}
    for event in view["log"]:
        if event["bake"] != view["bake"] or "seat" not in event:
            continue
        if event["type"] == "keep":
            taken.setdefault((event["pick"], event["seat"]), []).extend(event.get("faces", []))
        elif event["type"] == "snatch" and "face" in event:
            taken.setdefault((event["pick"], event["seat"]), []).append(event["face"])
    return taken


def passed_batches(view: View, memory: Memory) -> dict[int, list[str]]:
    """The batches this seat passed on this bake, as they must be now: seat -> faces. A batch
    held `back` picks ago has moved `back` seats along the ring, each holder taking from it
    what the log shows; one that does not add up to the count its seat shows is left out."""
    me = view["seat"]
    if me is None:
        return {}
    seats = view["seats"]
    ring, pick = len(seats), view["pick"]
    step = 1 if view["direction"] == "next" else -1
    taken = taken_this_bake(view)
    known: dict[int, list[str]] = {}
    for back in range(1, min(pick - 1, ring - 1) + 1):
        seen = memory.get(pick - back)
        if seen is None:
            continue
        batch = Counter(seen)
        for moved in range(back):
            batch.subtract(taken.get((pick - back + moved, (me + step * moved) % ring), []))
        holder = (me + step * back) % ring
        faces = sorted(batch.elements())
        if min(batch.values(), default=0) >= 0 and len(faces) == seats[holder]["batch_count"]:
            known[holder] = faces
    return known


def seen_faces(view: View) -> Counter[str]:
    """Every face this seat has seen leave the unseen: its batch, and each card kept or
    snatched in the log (which covers every case, truffle box, spent Peel and discard)."""
    seen: Counter[str] = Counter(card["face"] for card in view["batch"])
    for event in view["log"]:
        if event["type"] == "keep":
            seen.update(event.get("faces", []))
        elif event["type"] == "snatch" and "face" in event:
            seen[event["face"]] += 1
    return seen


def unseen_faces(view: View, known: Mapping[int, list[str]] | None = None) -> list[str]:
    """The faces this seat has not seen (or cannot place in a batch it passed), one entry per
    card, in a fixed order.

    A custom deck is not in the view; the standard deck is assumed, and a face seen more often
    than it stands in that deck is simply not dealt again."""
    unseen = Counter(standard_faces(view["bakers"]))
    unseen.subtract(seen_faces(view))
    for faces in (known or {}).values():
        unseen.subtract(faces)
    return [face for face in sorted(unseen) for _ in range(max(unseen[face], 0))]


def case_of(seat: SeatView) -> Case:
    """A public case as counts, its glazes matched as the view shows them."""
    case = Case()
    for card in seat["case"]:
        case.file(card["face"])
        if card["glazed"]:
            case.unglazed -= 1
            case.glazed += 1
    case.waiting = seat["waiting_glazes"]
    return case


def public_night(view: View, known: Mapping[int, list[str]] | None = None) -> Night:
    """The night as the seat knows it for sure: cases, boxes, points, its own batch and the
    batches it passed (`known`, from passed_batches)."""
    seat = view["seat"]
    if seat is None:
        raise TypeError("The master plays from its own seat's view, not a spectator's.")
    seats = view["seats"]
    night = Night(
        view["bakers"],
        len(seats),
        view["passing"],
        view["bake"],
        view["batch_size"],
    )
    night.cases = [case_of(shown) for shown in seats]
    night.truffles = [shown["truffles"] for shown in seats]
    night.banked = [shown["banked"] for shown in seats[: view["bakers"]]]
    night.batches[seat] = [card["face"] for card in view["batch"]]
    for holder, faces in (known or {}).items():
        night.batches[holder] = list(faces)
    return night


def determinize(
    public: Night, view: View, unseen: list[str], rng: random.Random, placed: Iterable[int] = ()
) -> Night:
    """One way the hidden cards could lie: the unseen faces shuffled into the other batches
    (each its shown count, but for the `placed` ones, known already) and then the deck."""
    night = public.copy()
    pool = unseen[:]
    rng.shuffle(pool)
    skip = {view["seat"], *placed}
    for shown in view["seats"]:
        if shown["seat"] not in skip:
            count = shown["batch_count"]
            night.batches[shown["seat"]] = pool[:count]
            del pool[:count]
    night.deck = pool[: view["deck_count"]]
    return night
