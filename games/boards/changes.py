"""Which board regions changed for a viewer, decided before rendering them.

Each region's template (with what it includes) reads a known set of context paths
(`view.bake`, `boxes`, `game.pk`...). A region's fingerprint is a hash of the values at those paths
in the viewer's context: a region whose fingerprint did not move since the last push to that viewer
renders the same HTML, so it is neither rendered nor sent. The paths are read from the compiled
templates once per process, so a new region or game needs no list kept by hand.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from functools import cache
from typing import Any

from django.db import models
from django.template import Node, NodeList
from django.template.base import FilterExpression, Variable
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.template.smartif import TokenBase

Path = tuple[str, ...]
MISSING = object()


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


def resolve(context: Mapping[str, Any], path: Path) -> Any:
    """The value at a path, looked up as Django templates do (key, attribute, index, call)."""
    current: Any = context
    for bit in path:
        try:
            current = current[bit]
        except (TypeError, AttributeError, KeyError, ValueError, IndexError):
            try:
                current = getattr(current, bit)
            except (TypeError, AttributeError):
                try:
                    current = current[int(bit)]
                except (IndexError, ValueError, KeyError, TypeError):
                    return MISSING
        if callable(current) and not getattr(current, "do_not_call_in_templates", False):
            if isinstance(current, type) or getattr(current, "alters_data", False):
                return MISSING
            try:
                current = current()
            except TypeError:
                return current  # a function handed to the template whole (it never changes)
    return current


class AppendOnly(list[Any]):
    """A list that only ever grows at one end (a game's log): its length and its newest item
    tell it apart, so its fingerprint costs the same for three entries or three hundred."""

    def __init__(self, items: Any, newest: Any) -> None:
        super().__init__(items)
        self.change_key = (len(self), plain(newest))


def plain(value: Any) -> Hashable:
    """A hashable stand-in that changes whenever the value would render differently."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, AppendOnly):
        return value.change_key
    if isinstance(value, Mapping):
        return tuple((repr(k), plain(v)) for k, v in sorted(value.items(), key=repr))
    if isinstance(value, list | tuple | range):
        return tuple(plain(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(plain(v) for v in value))  # type: ignore[type-var]
    if isinstance(value, models.Model):
        # A model handed over whole: every plain field (JSON fields are reached by their paths).
        fields = value._meta.concrete_fields
        return (
            value._meta.label,
            tuple(
                repr(getattr(value, f.attname))
                for f in fields
                if not isinstance(f, models.JSONField)
            ),
        )
    if callable(value):
        return getattr(value, "__qualname__", repr(value))
    return repr(value)


def fingerprint(context: Mapping[str, Any], template_name: str) -> int:
    """The hash of everything a region would show to this viewer."""
    return hash(tuple(plain(resolve(context, path)) for path in region_paths(template_name)))
