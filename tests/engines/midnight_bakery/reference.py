"""An independent scorer that rebuilds every bake and dawn from the public log alone."""

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

TART = {"jam": 1, "fruit": 2, "chocolate": 3}
LOAVES = {"baguette-1": 1, "baguette-2": 2, "baguette-3": 3}
BUNS = [0, 1, 3, 5, 8, 12]


def bun_score(n: int) -> int:
    """Cinnamon buns as the rules page lists them."""
    return BUNS[n] if n < len(BUNS) else 12 + 3 * (n - 5)


def kept_by_bake(log: Sequence[Mapping[str, Any]], seats: int) -> list[list[Counter[str]]]:
    """The faces each seat kept (or the owl snatched) in each bake, from the log."""
    bakes: dict[int, list[Counter[str]]] = {}
    for event in log:
        if event["type"] == "keep":
            faces = event["faces"]
        elif event["type"] == "snatch":
            faces = [event["face"]]
        else:
            continue
        counts = bakes.setdefault(event["bake"], [Counter() for _ in range(seats)])
        counts[event["seat"]].update(faces)
    return [bakes.get(bake, [Counter() for _ in range(seats)]) for bake in sorted(bakes)]


def bake_rows(kept: list[Counter[str]], bakers: int) -> list[dict[str, int]]:
    """What one bake pays each baker, scored from the faces kept."""
    loaves = [sum(LOAVES.get(face, 0) * n for face, n in faces.items()) for faces in kept]
    rows = []
    for seat in range(bakers):
        faces = kept[seat]
        tarts = sum(faces[face] for face in TART)
        rank = 1 + sum(1 for other in loaves if other > loaves[seat])
        paid = {1: 7, 2: 3, 3: 1 if bakers >= 6 else 0}.get(rank, 0)
        row = {
            "croissant": 4 * (faces["croissant"] // 2),
            "macaron": 9 * (faces["macaron"] // 3),
            "bun": bun_score(faces["bun"]),
            "tart": sum(TART[f] * faces[f] for f in TART) + 4 * min(faces["glaze"], tarts),
            "baguette": paid if loaves[seat] else 0,
            "loaves": loaves[seat],
        }
        row["total"] = sum(row[k] for k in ("croissant", "macaron", "bun", "tart", "baguette"))
        rows.append(row)
    return rows


def night_from_log(log: Sequence[Mapping[str, Any]], bakers: int, owl: bool) -> dict[str, Any]:
    """Bake rows, truffle bonus, scores and winners, rebuilt from the log."""
    seats = bakers + 1 if owl else bakers
    kept = kept_by_bake(log, seats)
    played = sum(1 for event in log if event["type"] == "bake_end")
    bakes = [
        bake_rows(kept[b] if b < len(kept) else [Counter()] * seats, bakers) for b in range(played)
    ]
    truffles = [sum(bake[seat]["truffle"] for bake in kept) for seat in range(seats)]
    banked = [sum(bake[seat]["total"] for bake in bakes) for seat in range(bakers)]
    mine, owl_box = truffles[:bakers], (truffles[bakers] if owl else 0)
    most = max(mine)
    bonus = []
    for count in mine:
        if count == 0:
            bonus.append(-3)
        elif count == most and owl_box <= most:
            bonus.append(7)
        else:
            bonus.append(0)
    scores = [b + x for b, x in zip(banked, bonus, strict=True)]
    top = max(scores)
    tied = [seat for seat in range(bakers) if scores[seat] == top]
    best_box = max(mine[seat] for seat in tied)
    return {
        "bakes": bakes,
        "truffles": mine,
        "truffle_bonus": bonus,
        "scores": scores,
        "winners": [seat for seat in tied if mine[seat] == best_box],
        "banked": banked,
    }
