"""The deck, the batch table and the seat names of Midnight Bakery."""

from games.engines.midnight_bakery.refusals import refused

SEAT_NAMES = ("Flour", "Sugar", "Butter", "Cream", "Spice", "Cocoa", "Honey", "Moon")
OWL_NAME = "Night Owl"
MIN_BAKERS, MAX_BAKERS = 2, 8

CROISSANT, MACARON, BUN = "croissant", "macaron", "bun"
JAM, FRUIT, CHOCOLATE = "jam", "fruit", "chocolate"
TRUFFLE, GLAZE, PEEL = "truffle", "glaze", "peel"
LOAVES = {"baguette-1": 1, "baguette-2": 2, "baguette-3": 3}
TART_FACE_VALUE = {JAM: 1, FRUIT: 2, CHOCOLATE: 3}
FACES = (CROISSANT, MACARON, BUN, *LOAVES, JAM, FRUIT, CHOCOLATE, TRUFFLE, GLAZE, PEEL)

FACE_NAMES = {
    CROISSANT: "Croissant",
    MACARON: "Macaron",
    BUN: "Cinnamon Bun",
    "baguette-1": "Baguette (1 loaf)",
    "baguette-2": "Baguette (2 loaves)",
    "baguette-3": "Baguette (3 loaves)",
    JAM: "Jam tart",
    FRUIT: "Fruit tart",
    CHOCOLATE: "Chocolate tart",
    TRUFFLE: "Truffle",
    GLAZE: "Honey Glaze",
    PEEL: "Baker's Peel",
}

BASE_DECK: dict[str, int] = {
    CROISSANT: 14,
    MACARON: 14,
    BUN: 14,
    "baguette-1": 6,
    "baguette-2": 11,
    "baguette-3": 7,
    JAM: 5,
    FRUIT: 10,
    CHOCOLATE: 5,
    TRUFFLE: 10,
    GLAZE: 6,
    PEEL: 4,
}
EXTRA_CARDS: dict[str, int] = {
    CROISSANT: 2,
    MACARON: 2,
    BUN: 2,
    "baguette-1": 1,
    "baguette-2": 1,
    "baguette-3": 1,
    JAM: 1,
    FRUIT: 1,
    CHOCOLATE: 1,
    TRUFFLE: 2,
    GLAZE: 1,
    PEEL: 1,
}
EXTRAS_FROM = 6

BATCH_SIZE = {2: 10, 3: 9, 4: 8, 5: 7, 6: 6, 7: 5, 8: 5}


def face_name(face: str) -> str:
    """A face's name as players know it ("Cinnamon Bun"); an unknown face as it is."""
    return FACE_NAMES.get(face, face)


def face_of(card: str) -> str:
    """The face of a card id such as ``croissant-07`` or ``baguette-2-03``."""
    return card.rsplit("-", 1)[0]


def number_cards(faces: list[str]) -> list[str]:
    """Give each face a stable id, numbering each face from 01 in the order given."""
    seen: dict[str, int] = {}
    ids = []
    for face in faces:
        if face not in FACE_NAMES:
            raise refused("no-such-face", face=repr(face))
        seen[face] = seen.get(face, 0) + 1
        ids.append(f"{face}-{seen[face]:02d}")
    return ids


def standard_faces(bakers: int) -> list[str]:
    """The faces of the night's deck, unshuffled: base deck, plus the extras at six or more."""
    faces = [face for face, count in BASE_DECK.items() for _ in range(count)]
    if bakers >= EXTRAS_FROM:
        faces += [face for face, count in EXTRA_CARDS.items() for _ in range(count)]
    return faces


def seat_name(seat: int, bakers: int) -> str:
    """The name of a seat; the seat after the last baker is the owl at two."""
    return OWL_NAME if seat == bakers else SEAT_NAMES[seat]
