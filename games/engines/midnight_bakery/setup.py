"""What a night starts from: its options, and its setup (the deck and the owl's stream).

A setup is `{"deck": [...], "rng": N}`: the whole deck top first, as faces (numbered from 01
per face in the order given) or as card ids (kept as given), and optionally the stream the
owl draws from (else the seed's). `deal` writes the setup a seed deals, so a night started
from `deal(...)` is the very night the seed alone would start, card ids and owl included.
"""

from collections.abc import Mapping

from games.engines.midnight_bakery.cards import (
    FACE_NAMES,
    MAX_BAKERS,
    MIN_BAKERS,
    number_cards,
    standard_faces,
)
from games.engines.midnight_bakery.refusals import refused
from games.engines.midnight_bakery.shapes import Setup
from games.engines.midnight_bakery.state import PASSING_OPTIONS
from games.engines.rng import checked_seed, checked_stream, seed_state, shuffled

SETUP_KEYS = frozenset({"deck", "rng"})


# Which rules a game was played under: stored with every game at its start. Bump it with any
# change that plays a stored game differently (the golden games in tests/ say when).
RULES_VERSION = 1


def checked_bakers(players: object) -> int:
    """The number of bakers, 2 to 8; IllegalAction otherwise."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise refused("bakers-not-whole")
    if not MIN_BAKERS <= players <= MAX_BAKERS:
        raise refused("night-bakers-count")
    return players


def checked_passing(options: object) -> str:
    """The passing option ('alternate' by default); unknown options and values are refused."""
    if options is None:
        return "alternate"
    if not isinstance(options, dict):
        raise refused("options-not-dict")
    unknown = sorted(str(name) for name in options if name != "passing")
    if unknown:
        raise refused("night-no-option", name=repr(unknown[0]))
    passing = options.get("passing", "alternate")
    if passing not in PASSING_OPTIONS:
        raise refused("passing-choices")
    return str(passing)


def is_card_id(entry: str) -> bool:
    """Whether a deck entry is a card id such as ``croissant-07`` rather than a face."""
    face, _, number = entry.rpartition("-")
    return face in FACE_NAMES and number.isdigit() and entry not in FACE_NAMES


def checked_deck(deck: object) -> list[str]:
    """The card ids of a setup's deck, top first; IllegalAction for anything malformed."""
    if not isinstance(deck, list) or not all(isinstance(entry, str) for entry in deck):
        raise refused("deck-not-list")
    ids = [entry for entry in deck if is_card_id(entry)]
    if not ids:
        return number_cards(deck)
    if len(ids) != len(deck):
        raise refused("deck-mixed")
    seen: set[str] = set()
    for card in ids:
        if card in seen:
            raise refused("deck-twice", card=card)
        seen.add(card)
    return ids


def checked_setup(setup: object, seed: int) -> tuple[list[str], int] | None:
    """The deck and the stream a setup gives, or None without one."""
    if setup is None:
        return None
    if not isinstance(setup, dict):
        raise refused("setup-not-dict")
    unknown = sorted(str(key) for key in set(setup) - SETUP_KEYS)
    if unknown:
        raise refused("night-setup-key", name=repr(unknown[0]))
    if "deck" not in setup:
        raise refused("night-setup-deck")
    deck = checked_deck(setup["deck"])
    stream = checked_stream(setup["rng"]) if "rng" in setup else seed_state(seed)
    return deck, stream


def shuffled_deck(players: int, seed: int) -> tuple[list[str], int]:
    """The night's deck shuffled from the seed, and the stream left for the owl."""
    return shuffled(number_cards(standard_faces(players)), seed_state(seed))


def deal(players: int, *, seed: int, options: Mapping[str, object] | None = None) -> Setup:
    """The setup the seed deals: the shuffled deck as card ids and the owl's stream after it."""
    checked_bakers(players)
    checked_passing(options)
    deck, stream = shuffled_deck(players, checked_seed(seed))
    return {"deck": deck, "rng": stream}
