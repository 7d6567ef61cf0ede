"""What a seat cannot see, dealt at random from what it can: the master's determinizations.

A seat sees its own batch, every case and truffle box, how many cards each other batch and
the deck hold, and the log of every card kept or snatched. The cards it has not seen are the
night's deck less all of those; a determinization deals them at random into the other batches
(by their counts) and the deck. Nothing here reads a State: only the View.

The view does not hold the seat's memory of the batches it passed on this bake, so those are
dealt from the unseen cards like any other (a seat that remembered them would know more).
"""

import random
from collections import Counter

from games.engines.midnight_bakery.cards import standard_faces
from games.engines.midnight_bakery.playout import Case, Night
from games.engines.midnight_bakery.shapes import SeatView, View


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


def unseen_faces(view: View) -> list[str]:
    """The faces this seat has not seen, one entry per card, in a fixed order.

    A custom deck is not in the view; the standard deck is assumed, and a face seen more often
    than it stands in that deck is simply not dealt again."""
    unseen = Counter(standard_faces(view["bakers"]))
    unseen.subtract(seen_faces(view))
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


def public_night(view: View) -> Night:
    """The night as the seat knows it for sure: cases, boxes, points and its own batch."""
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
    return night


def determinize(known: Night, view: View, unseen: list[str], rng: random.Random) -> Night:
    """One way the hidden cards could lie: the unseen faces shuffled into the other batches
    (each its shown count) and then the deck (its shown size)."""
    night = known.copy()
    pool = unseen[:]
    rng.shuffle(pool)
    me = view["seat"]
    for shown in view["seats"]:
        if shown["seat"] != me:
            count = shown["batch_count"]
            night.batches[shown["seat"]] = pool[:count]
            del pool[:count]
    night.deck = pool[: view["deck_count"]]
    return night
