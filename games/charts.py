"""Small server-rendered SVG charts: the geometry here, the markup in templates/charts/.

Pure functions of numbers (no queries): a line of a rating history, horizontal bars, and
columns of a distribution. Every chart also carries its numbers as text for screen readers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext


@dataclass(frozen=True)
class Line:
    """A polyline through the values, left to right, in a width x height box."""

    points: str
    width: int
    height: int
    first: int
    last: int
    low: int
    high: int
    count: int
    end_x: float
    end_y: float


def line(values: Sequence[float], width: int = 240, height: int = 60, pad: int = 4) -> Line | None:
    """The polyline of the values (oldest first); None with fewer than two."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (width - 2 * pad) / (len(values) - 1)
    coords = [
        (pad + i * step, pad + (height - 2 * pad) * (1 - (v - low) / span))
        for i, v in enumerate(values)
    ]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    return Line(
        points=points,
        width=width,
        height=height,
        first=round(values[0]),
        last=round(values[-1]),
        low=round(low),
        high=round(high),
        count=len(values),
        end_x=round(coords[-1][0], 1),
        end_y=round(coords[-1][1], 1),
    )


@dataclass(frozen=True)
class Bar:
    """One horizontal bar: its label, the text after it, and its geometry."""

    label: str
    text: str
    y: int
    length: float


@dataclass(frozen=True)
class Bars:
    bars: list[Bar]
    width: int
    height: int
    label_width: int
    row: int


def hbars(
    rows: Sequence[tuple[str, float, str]],
    width: int = 420,
    label_width: int = 150,
    row: int = 22,
    scale_to: float | None = None,
) -> Bars:
    """Horizontal bars of (label, value, text) rows, longest for the largest (or scale_to)."""
    top = scale_to if scale_to is not None else max((v for _, v, _ in rows), default=0)
    room = width - label_width - 90
    bars = [
        Bar(label=label, text=text, y=i * row, length=round(room * value / top, 1) if top else 0)
        for i, (label, value, text) in enumerate(rows)
    ]
    return Bars(
        bars=bars, width=width, height=max(row, row * len(rows)), label_width=label_width, row=row
    )


def top_bars(
    counts: Mapping[str, int], name: Callable[[str], str] = str, most: int = 10
) -> Bars | None:
    """Bars of the most counted keys, most first (ties by key), each labelled by its name;
    None when nothing was counted."""
    best = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:most]
    rows = [(name(key), n, f"{n:,}") for key, n in best]
    return hbars(rows, label_width=190) if rows else None


def percent(part: int, whole: int) -> float:
    """Part of the whole in percent; 0 of nothing."""
    return 100 * part / whole if whole else 0.0


@dataclass(frozen=True)
class Column:
    label: str
    value: int
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Columns:
    columns: list[Column]
    width: int
    height: int
    base: int
    top: int


def columns(
    rows: Sequence[tuple[str, int]], width: int = 480, height: int = 160, foot: int = 18
) -> Columns:
    """Vertical columns of (label, count) rows, left to right, tallest for the largest count."""
    top = max((v for _, v in rows), default=0)
    room = height - foot
    w = width / max(1, len(rows))
    cols = []
    for i, (label, value) in enumerate(rows):
        h = room * value / top if top else 0
        cols.append(
            Column(
                label=label,
                value=value,
                x=round(i * w + 1, 1),
                y=round(room - h, 1),
                w=round(w - 2, 1),
                h=round(h, 1),
            )
        )
    return Columns(columns=cols, width=width, height=height, base=room, top=top)


def range_words(start: int, end: int) -> str:
    """A range of whole numbers in the reader's language ("10 to 19")."""
    return gettext("%(start)d to %(end)d") % {"start": start, "end": end}


def bins(counts: dict[int, int], most: int = 16) -> list[tuple[str, int]]:
    """A distribution of whole numbers in at most `most` equal ranges, every range shown."""
    if not counts:
        return []
    low, high = min(counts), max(counts)
    size = max(1, -(-(high - low + 1) // most))
    out = []
    for start in range(low, high + 1, size):
        end = start + size - 1
        label = str(start) if size == 1 else range_words(start, end)
        out.append((label, sum(n for v, n in counts.items() if start <= v <= end)))
    return out
