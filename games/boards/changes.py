"""Which board regions changed for a viewer, decided before rendering them.

Each region's template (with what it includes) reads a known set of context paths
(`view.bake`, `boxes`, `game.pk`...). A region's fingerprint is a hash of the values at those paths
in the viewer's context: a region whose fingerprint did not move since the last push to that viewer
renders the same HTML, so it is neither rendered nor sent. The paths are read from the compiled
templates once per process, so a new region or game needs no list kept by hand.
"""

from __future__ import annotations

import itertools
import marshal
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from functools import cache
from operator import attrgetter
from typing import Any

from django.db import models
from django.template import Node, NodeList
from django.template.base import FilterExpression, Variable
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.template.smartif import TokenBase

from games.kinds.base import AppendOnly

Path = tuple[str, ...]
MISSING = object()
# What stands for a value whose render cannot be told from its plain form (an object with no
# value-based repr, a template included by a variable's name): unique each time, so the region
# counts as changed on every push and is never shared between viewers.
UNKNOWN: Path = ("<unknown>",)
_opaque = itertools.count()


def expressions(value: Any, seen: set[int]) -> Iterator[FilterExpression | Path]:
    """Every expression a compiled template piece reads, following constant includes."""
    if isinstance(value, FilterExpression):
        yield value
    elif isinstance(value, IncludeNode):
        yield from include_expressions(value, seen)
    elif isinstance(value, CsrfTokenNode):
        yield ("csrf_token",)
    elif isinstance(value, Node | TokenBase):
        for part in vars(value).values():
            yield from expressions(part, seen)
    elif isinstance(value, NodeList | list | tuple):
        for part in value:
            yield from expressions(part, seen)
    elif isinstance(value, dict):
        for part in value.values():
            yield from expressions(part, seen)


def include_expressions(node: IncludeNode, seen: set[int]) -> Iterator[FilterExpression | Path]:
    """What an {% include %} reads: its arguments, and the included template when it is fixed."""
    yield from expressions(node.extra_context, seen)
    name = node.template.var if isinstance(node.template, FilterExpression) else None
    if isinstance(name, str):
        yield from template_expressions(name, seen)
    else:
        yield from expressions(node.template, seen)
        yield UNKNOWN  # what a template named at render time reads is not known here


def template_expressions(name: str, seen: set[int]) -> Iterator[FilterExpression | Path]:
    """What a template reads (each template once, so recursive includes end)."""
    template = get_template(name).template  # type: ignore[attr-defined]
    if id(template) in seen:
        return
    seen.add(id(template))
    yield from expressions(template.nodelist, seen)


def paths_of(expression: FilterExpression | Path) -> Iterator[Path]:
    """The context paths an expression looks up: its variable and its filters' arguments."""
    if isinstance(expression, tuple):
        yield expression
        return
    if isinstance(expression.var, Variable) and expression.var.lookups:
        yield tuple(expression.var.lookups)
    for _, args in expression.filters:
        for is_lookup, arg in args:
            if is_lookup and isinstance(arg, Variable) and arg.lookups:
                yield tuple(arg.lookups)


@cache
def region_paths(template_name: str) -> tuple[Path, ...]:
    """Every context path a region template reads, sorted (computed once per process)."""
    found = {p for e in template_expressions(template_name, set()) for p in paths_of(e)}
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
    if current is MISSING:
        return MISSING
    current = called(current)
    for bit in bits:
        current = called(step(current, bit))
        if current is MISSING:
            return MISSING
    return current


def step(current: Any, bit: str) -> Any:
    """One bit of a lookup: a key, else an attribute, else an index (as Django's Variable does;
    a value with no [] skips straight to its attribute, raising nothing)."""
    indexed = hasattr(type(current), "__getitem__")
    if indexed:
        try:
            return current[bit]
        except (TypeError, AttributeError, KeyError, ValueError, IndexError):
            pass
    try:
        return getattr(current, bit)
    except (TypeError, AttributeError):
        pass
    if indexed:
        try:
            return current[int(bit)]
        except (IndexError, ValueError, KeyError, TypeError):
            pass
    return MISSING


def called(current: Any) -> Any:
    """A looked-up value as a template uses it: a callable is called (unless it says not to)."""
    if current is MISSING or not callable(current):
        return current
    if getattr(current, "do_not_call_in_templates", False):
        return current
    if isinstance(current, type) or getattr(current, "alters_data", False):
        return MISSING
    try:
        return current()
    except TypeError:
        return current  # a function handed to the template whole (it never changes)


class Tag:
    """A marker in plain forms that no value's plain form can be equal to."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


TYPED = Tag("typed")  # (TYPED, class, form): values of two classes are never equal (1, True)
OPAQUE = Tag("opaque")  # (OPAQUE, n): a value that cannot be compared, equal to nothing else
WRITTEN = Tag("written")  # (WRITTEN, bytes): a dict, list or tuple of plain builtins (see plain)


def written(value: Any) -> Hashable | None:
    """A value made of exact builtins only (str, int, bool, float, None, dict, list, tuple, set)
    as its marshal bytes, else None.

    Each type has its own code, dicts keep their order, and version 2 writes no back-references,
    so equal bytes are equal values of equal types. marshal refuses anything else (a safe string,
    a model). (It writes any buffer, a bytearray too, as bytes; no board context holds either.)
    """
    try:
        return (WRITTEN, marshal.dumps(value, 2))
    except ValueError:
        return None


def plain(value: Any) -> Hashable:
    """A hashable stand-in, equal for two values only if they render alike.

    Equal stand-ins render equally, so viewers whose regions' stand-ins are equal may share one
    render (shared.py). The class is part of every form but plain str, int and list (so `1`,
    `1.0`, `True`, a safe string and its escaped twin all differ), dictionaries and sets keep
    their order (a template iterates them in it), and a value that cannot be told by its form
    gets a stand-in equal to nothing.
    """
    kind = type(value)
    if kind is str or kind is int or value is None or value is MISSING:
        return value
    if kind is dict or kind is list or kind is tuple:
        form = written(value)
        if form is not None:
            return form
    if isinstance(value, AppendOnly):
        return (TYPED, AppendOnly, len(value), plain(value.newest))
    if kind is list:
        return tuple([plain(v) for v in value])
    if isinstance(value, str | int | float):
        return (TYPED, kind, value)
    if isinstance(value, Mapping):
        return (TYPED, kind, tuple([(plain(k), plain(v)) for k, v in value.items()]))
    if isinstance(value, tuple | range | set | frozenset | list):
        return (TYPED, kind, tuple([plain(v) for v in value]))
    if isinstance(value, models.Model):
        # A model handed over whole: every plain field (JSON fields are reached by their paths),
        # with its class (so 120 and 120.0, 1 and True stay apart).
        fields = model_fields(kind)(value)
        try:
            hash(fields)
        except TypeError:
            return (TYPED, kind, repr(fields))
        return (TYPED, kind, fields, tuple(map(type, fields)))
    if callable(value):
        return (TYPED, kind, getattr(value, "__qualname__", repr(value)))
    if kind.__repr__ is object.__repr__:
        return (OPAQUE, next(_opaque))  # its repr is its address: nothing to compare
    return (TYPED, kind, repr(value))


_model_fields: dict[type[models.Model], Callable[[models.Model], tuple[Any, ...]]] = {}


def model_fields(kind: type[models.Model]) -> Callable[[models.Model], tuple[Any, ...]]:
    """What reads a model's plain fields (all but JSON fields) as a tuple (made once a class)."""
    if kind not in _model_fields:
        names = [
            f.attname for f in kind._meta.concrete_fields if not isinstance(f, models.JSONField)
        ]
        getter = attrgetter(*names)  # one name gives its value, not a tuple
        _model_fields[kind] = getter if len(names) > 1 else lambda value: (getter(value),)
    return _model_fields[kind]


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


def read_groups(
    get: Callable[[str, Any], Any], groups: Groups, whole: bool = False
) -> tuple[Hashable, ...]:
    """The plain values a template reads, a group per first name (`get`: the context's lookup
    of a name). The paths under a name missing from the context are all missing: one MISSING.

    `whole`: a name the template reads several paths under, whose value is plain builtins only
    (a dict of a rival's box), stands for all of them by its marshal bytes (see written), which
    fix every value under it, at the cost of one call; else each path is looked up.
    """
    values: list[Hashable] = []
    for name, rests in groups:
        if name == UNKNOWN[0]:
            values.append(plain(object()))  # equal to nothing (see UNKNOWN)
            continue
        first = get(name, MISSING)
        if first is MISSING:
            values.append(MISSING)
            continue
        form = None
        if whole and len(rests) > 1 and type(first) in (dict, list, tuple):
            form = written(first)
        if form is None:
            form = tuple([plain(descend(first, rest)) for rest in rests])
        values.append(form)
    return tuple(values)


def inputs(context: Mapping[str, Any], template_name: str) -> Inputs:
    """Everything a region would show to this viewer (each path looked up: a region reads a
    few things of the engine's whole view, which moves on every move)."""
    return Inputs(read_groups(context.get, region_groups(template_name)))


def fingerprint(context: Mapping[str, Any], template_name: str) -> int:
    """The hash of everything a region would show to this viewer."""
    return inputs(context, template_name).print
