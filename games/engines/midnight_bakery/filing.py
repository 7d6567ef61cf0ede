"""Filing kept cards into a case: truffles to the box, glazes onto the best unglazed tart."""

from games.engines.midnight_bakery.cards import GLAZE, PEEL, TART_FACE_VALUE, TRUFFLE, face_of
from games.engines.midnight_bakery.state import Cards


def best_unglazed_tart(case: Cards, glazed: frozenset[str]) -> str | None:
    """Chocolate, then fruit, then jam; the earliest filed among equals."""
    best, best_value = None, 0
    for card in case:
        value = TART_FACE_VALUE.get(face_of(card), 0)
        if value > best_value and card not in glazed:
            best, best_value = card, value
    return best


def match_glazes(
    case: Cards, glazed: frozenset[str], waiting: Cards
) -> tuple[frozenset[str], Cards]:
    """While a glaze waits and a tart is unglazed, the oldest glaze lands on the best tart."""
    while waiting:
        tart = best_unglazed_tart(case, glazed)
        if tart is None:
            break
        glazed = glazed | {tart}
        waiting = waiting[1:]
    return glazed, waiting


def file_cards(
    case: Cards, glazed: frozenset[str], waiting: Cards, truffles: Cards, cards: Cards
) -> tuple[Cards, frozenset[str], Cards, Cards]:
    """File cards kept together (in the order given), then match glazes once."""
    for card in cards:
        face = face_of(card)
        if face == TRUFFLE:
            truffles = (*truffles, card)
            continue
        case = (*case, card)
        if face == GLAZE:
            waiting = (*waiting, card)
    if waiting:
        glazed, waiting = match_glazes(case, glazed, waiting)
    return case, glazed, waiting, truffles


def oldest_peel(case: Cards) -> str | None:
    """The Peel a Peel action spends: the oldest in the case."""
    for card in case:
        if face_of(card) == PEEL:
            return card
    return None
