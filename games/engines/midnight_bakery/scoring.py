"""Scoring a case, ranking baguettes, the truffle bonus at dawn, and the winners."""

from collections.abc import Sequence

from games.engines.midnight_bakery.cards import (
    BUN,
    CROISSANT,
    LOAVES,
    MACARON,
    TART_FACE_VALUE,
    face_of,
)
from games.engines.midnight_bakery.shapes import BakeRow, BakeScore

GLAZE_BONUS = 4
BAGUETTE_RANK_POINTS = {1: 7, 2: 3, 3: 1}
THIRD_RANK_FROM = 6
TRUFFLE_LEAD_BONUS = 7
EMPTY_BOX_PENALTY = -3
BUN_POINTS = (0, 1, 3, 5, 8, 12)


def croissant_points(count: int) -> int:
    """Every pair of croissants scores 4."""
    return 4 * (count // 2)


def macaron_points(count: int) -> int:
    """Every three macarons score 9."""
    return 9 * (count // 3)


def bun_points(count: int) -> int:
    """1, 3, 5, 8, 12, then 3 more for each bun after the fifth."""
    if count < len(BUN_POINTS):
        return BUN_POINTS[count]
    return BUN_POINTS[-1] + 3 * (count - len(BUN_POINTS) + 1)


def tart_points(case: Sequence[str], glazed: frozenset[str]) -> int:
    """Tarts at face value, and 4 more for each glazed one."""
    total = 0
    for card in case:
        value = TART_FACE_VALUE.get(face_of(card))
        if value is not None:
            total += value + (GLAZE_BONUS if card in glazed else 0)
    return total


def loaves_in(case: Sequence[str]) -> int:
    """The loaf total of a case."""
    return sum(LOAVES.get(face_of(card), 0) for card in case)


def baguette_points(loaves: Sequence[int], bakers: int) -> list[int]:
    """Points for each seat's loaves; rank is one plus the seats with strictly more loaves."""
    points = []
    for mine in loaves:
        if mine == 0:
            points.append(0)
            continue
        rank = 1 + sum(1 for other in loaves if other > mine)
        if rank == 3 and bakers < THIRD_RANK_FROM:
            points.append(0)
        else:
            points.append(BAGUETTE_RANK_POINTS.get(rank, 0))
    return points


def case_breakdown(case: Sequence[str], glazed: frozenset[str]) -> BakeScore:
    """Croissant, macaron, bun and tart points of one case (baguettes are ranked separately)."""
    faces = [face_of(card) for card in case]
    return {
        "croissant": croissant_points(faces.count(CROISSANT)),
        "macaron": macaron_points(faces.count(MACARON)),
        "bun": bun_points(faces.count(BUN)),
        "tart": tart_points(case, glazed),
    }


def bake_breakdowns(
    cases: Sequence[Sequence[str]],
    glazed: Sequence[frozenset[str]],
    bakers: int,
    banked: Sequence[int],
) -> list[BakeRow]:
    """One breakdown per baker for a finished bake; the owl's case, if any, only ranks loaves."""
    loaves = [loaves_in(case) for case in cases]
    baguettes = baguette_points(loaves, bakers)
    rows: list[BakeRow] = []
    for seat in range(bakers):
        score = case_breakdown(cases[seat], glazed[seat])
        total = (
            score["croissant"] + score["macaron"] + score["bun"] + score["tart"] + baguettes[seat]
        )
        rows.append(
            {
                **score,
                "baguette": baguettes[seat],
                "loaves": loaves[seat],
                "total": total,
                "running": banked[seat] + total,
            }
        )
    return rows


def owl_denies(truffles: Sequence[int], owl_truffles: int | None) -> bool:
    """Whether the owl takes the 7 from the truffle leaders: it holds strictly more than every
    baker, and some baker holds any (else there was no bonus to take)."""
    most = max(truffles)
    return owl_truffles is not None and most > 0 and owl_truffles > most


def truffle_bonus(truffles: Sequence[int], owl_truffles: int | None) -> list[int]:
    """Dawn: 7 to the most truffles (unless the owl denies it), -3 to an empty box."""
    most = max(truffles)
    denied = owl_denies(truffles, owl_truffles)
    bonus = []
    for count in truffles:
        if count == 0:
            bonus.append(EMPTY_BOX_PENALTY)
        elif count == most and not denied:
            bonus.append(TRUFFLE_LEAD_BONUS)
        else:
            bonus.append(0)
    return bonus


def winners(scores: Sequence[int], truffles: Sequence[int]) -> list[int]:
    """Highest total, then most truffles; whoever still ties shares the night."""
    best = max(zip(scores, truffles, strict=True))
    return [seat for seat, key in enumerate(zip(scores, truffles, strict=True)) if key == best]
