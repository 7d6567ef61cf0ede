"""Where a move's pushes spend their CPU, for `BENCH_PUSHES_PARTS=1 python -m bench.pushes`.

Wraps, in this process only, the parts of a push: each board template's render
(games.boards.jinja.render_template: a region or a piece, by its template), the board's context
(render.board_context), the regions' inputs (render.region_inputs) and the values' marshal
(plain.written, the keys of the regions and pieces kept). Each part's own CPU
(time.process_time, the parts called inside it taken out) is summed while the pushes are timed
and printed a move. The clock's own calls add about a microsecond a part: compare the parts
with one another and the same figures of another tree, not with the bench's plain figures.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

_on = [False]
_moves = [0]
_calls: Counter[str] = Counter()
_own: dict[str, float] = {}  # seconds, the nested parts taken out
_inside: list[float] = []  # the CPU of the parts called inside each open part


def counting(on: bool) -> None:
    """Count the parts from now (the pushes of a counted move) or stop."""
    _on[0] = on


def moved() -> None:
    """One more counted move."""
    _moves[0] += 1


def timed(name: Callable[..., str], call: Callable[..., Any]) -> Callable[..., Any]:
    """`call`, its own CPU counted under name(*its arguments) while counting."""

    def part(*args: Any, **kwargs: Any) -> Any:
        if not _on[0]:
            return call(*args, **kwargs)
        _inside.append(0.0)
        start = time.process_time()
        try:
            return call(*args, **kwargs)
        finally:
            spent = time.process_time() - start
            nested = _inside.pop()
            key = name(*args, **kwargs)
            _calls[key] += 1
            _own[key] = _own.get(key, 0.0) + spent - nested
            if _inside:
                _inside[-1] += spent

    return part


_collecting = [0.0]


def collection(phase: str, info: dict[str, int]) -> None:
    """gc.callbacks: the collector's own CPU while counting (also inside the part it stopped)."""
    if not _on[0]:
        return
    if phase == "start":
        _collecting[0] = time.process_time()
    else:
        key = f"(garbage collection, generation {info['generation']}; within the parts)"
        _calls[key] += 1
        _own[key] = _own.get(key, 0.0) + time.process_time() - _collecting[0]


def install() -> None:
    """Wrap the parts (this process only; the bench's own)."""
    gc.callbacks.append(collection)
    from games.boards import context, jinja, plain, render

    vars(render)["board_context"] = timed(lambda *_, **__: "(board context)", context.board_context)

    jinja.render_template = timed(lambda t, *_: str(t.name), jinja.render_template)
    render.region_inputs = timed(lambda *_: "(region inputs)", render.region_inputs)
    written = timed(lambda *_: "(marshal of values)", plain.written)
    plain.written = written
    vars(jinja)["written"] = written  # imported there by name


def report(kind: str) -> None:
    """Print the counted parts a move, the costliest first, and forget them."""
    moves = max(1, _moves[0])
    total = sum(spent for key, spent in _own.items() if not key.startswith("(garbage"))
    figure = f"{total * 1000 / moves:.2f} ms a move"
    print(f"   {kind}: the parts' own CPU, {moves} moves counted ({figure})")
    print(f"   {'part':52} {'a move':>8} {'µs each':>8} {'ms a move':>9}")
    for key, spent in sorted(_own.items(), key=lambda item: -item[1]):
        calls = _calls[key]
        print(
            f"   {key[-52:]:52} {calls / moves:8.2f} {spent * 1e6 / calls:8.1f}"
            f" {spent * 1000 / moves:9.3f}"
        )
    _calls.clear()
    _own.clear()
    _moves[0] = 0
