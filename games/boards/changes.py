"""Which board regions changed for a viewer, decided before rendering them.

Each region's template (with what it includes) reads a known set of context paths
(`view.bake`, `boxes`, `game.pk`...). A region's fingerprint is a hash of the values at those paths
in the viewer's context: a region whose fingerprint did not move since the last push to that viewer
renders the same HTML, so it is neither rendered nor sent. The paths are read from the templates'
Jinja2 syntax trees once per process, so a new region or game needs no list kept by hand.

A piece ({{ piece("...", name=value) }}, games/boards/jinja.py) reads only the values passed to
it, so what a region reads of a piece is the expressions of those values, which are the region's
own; the piece's template is not walked.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from functools import cache
from typing import Any

from jinja2 import Environment, nodes

from games.boards.jinja import board_environment
from games.boards.plain import MISSING as MISSING  # what a lookup that finds nothing yields
from games.boards.plain import opaque, plain

Path = tuple[str, ...]
# What stands for a template included by a name known only at render time: what it reads is not
# known, so it is read as a value equal to nothing (the region counts as changed on every push
# and is never shared between viewers).
UNKNOWN: Path = ("<unknown>",)


def chain(node: nodes.Node) -> Path | None:
    """The context path a name and its attributes (`view.bake`) read, else None."""
    bits: list[str] = []
    while isinstance(node, nodes.Getattr):
        bits.append(node.attr)
        node = node.node
    if isinstance(node, nodes.Name) and node.ctx == "load":
        return (node.name, *reversed(bits))
    return None


def reads(env: Environment, node: nodes.Node, found: set[Path], seen: set[str]) -> None:
    """Add every context path this piece of a template reads, following constant includes.

    A name the environment provides (`static`, `piece`...) is no context path; a name the template
    binds itself (a loop's `box`) is read from a context that lacks it, which costs one MISSING.
    """
    if isinstance(node, nodes.Name | nodes.Getattr):
        path = chain(node)
        if path is not None:
            if path[0] not in env.globals:
                found.add(path)
            return
    if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr):
        # A method called on a value: the value is read whole, its method's name is no path.
        node = nodes.Call(node.node.node, node.args, node.kwargs, node.dyn_args, node.dyn_kwargs)
    if isinstance(node, nodes.Include):
        name = node.template.value if isinstance(node.template, nodes.Const) else None
        if isinstance(name, str):
            template_reads(env, name, found, seen)
        else:
            reads(env, node.template, found, seen)
            found.add(UNKNOWN)
        return
    for child in node.iter_child_nodes():
        reads(env, child, found, seen)


def template_reads(env: Environment, name: str, found: set[Path], seen: set[str]) -> None:
    """Add every context path a template reads (each template once, so recursive includes end)."""
    if name in seen:
        return
    seen.add(name)
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, name)
    reads(env, env.parse(source, name), found, seen)


@cache
def region_paths(template_name: str) -> tuple[Path, ...]:
    """Every context path a region template reads, sorted (computed once per process)."""
    found: set[Path] = set()
    template_reads(board_environment(), template_name, found, set())
    return tuple(sorted(found))


# A template's paths by the name each starts with: (name, the rest of each path under it).
Groups = tuple[tuple[str, tuple[Path, ...]], ...]


def grouped(paths: Iterable[Path]) -> Groups:
    """Paths grouped by their first name (each name looked up once), sorted."""
    by_name: dict[str, list[Path]] = {}
    for path in sorted(set(paths)):
        by_name.setdefault(path[0], []).append(path[1:])
    return tuple((name, tuple(rests)) for name, rests in by_name.items())


@cache
def region_groups(template_name: str) -> Groups:
    """A region template's paths, grouped (computed once per process)."""
    return grouped(region_paths(template_name))


def descend(current: Any, bits: Path) -> Any:
    """The value `bits` lead to from a value already looked up (MISSING stays MISSING)."""
    for bit in bits:
        if current is MISSING:
            return MISSING
        current = step(current, bit)
    return current


def step(current: Any, bit: str) -> Any:
    """One attribute of a lookup, as the boards' templates read it (jinja.BoardEnvironment): a
    dict's key first, else the attribute, else the item."""
    if type(current) is dict:
        found = current.get(bit, MISSING)
        if found is not MISSING:
            return found
    try:
        return getattr(current, bit)
    except AttributeError:
        pass
    except Exception:  # a property that fails: the render will tell; never equal meanwhile
        return opaque()
    try:
        return current[bit]
    except (TypeError, LookupError, AttributeError):
        return MISSING


class Inputs:
    """Everything a region would show to one viewer: the plain values at the paths it reads.

    Equal only to the very same values (compared whole); its hash is the region's fingerprint,
    computed once.
    """

    __slots__ = ("values", "print")

    def __init__(self, values: tuple[Hashable, ...]) -> None:
        self.values = values
        self.print = hash(values)

    def __hash__(self) -> int:
        return self.print

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Inputs) and self.print == other.print and self.values == other.values
        )


def read_groups(get: Callable[[str, object], object], groups: Groups) -> tuple[Hashable, ...]:
    """The plain values a template reads, a group per first name (`get`: the context's lookup
    of a name). The paths under a name missing from the context are all missing: one MISSING."""
    values: list[Hashable] = []
    for name, rests in groups:
        if name == UNKNOWN[0]:
            values.append(opaque())  # equal to nothing (see UNKNOWN)
            continue
        first = get(name, MISSING)
        if first is MISSING:
            values.append(MISSING)
            continue
        values.append(tuple([plain(descend(first, rest)) for rest in rests]))
    return tuple(values)


def inputs(context: Mapping[str, object], template_name: str) -> Inputs:
    """Everything a region would show to this viewer (each path looked up: a region reads a
    few things of the engine's whole view, which moves on every move)."""
    return Inputs(read_groups(context.get, region_groups(template_name)))


def fingerprint(context: Mapping[str, object], template_name: str) -> int:
    """The hash of everything a region would show to this viewer."""
    return inputs(context, template_name).print
