"""A value's plain stand-in: two values have equal stand-ins only if they render alike.

Renders are shared between viewers, and kept across versions, by what they read
(games/boards/renders.py): a region by the values at the paths its template reads
(games/boards/changes.py), a piece by the values it is passed (games/boards/jinja.py). Those
values are compared through these stand-ins, whole, never by a hash alone.
"""

from __future__ import annotations

import itertools
import marshal
from collections.abc import Callable, Hashable, Mapping
from operator import attrgetter
from typing import Any, cast

from django.db import models

from games.kinds.base import AppendOnly

MISSING = object()  # a name or path the context lacks (it renders empty)
_opaque = itertools.count()


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


def written(value: Any) -> Hashable | None:  # anything: marshal decides
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


def opaque() -> Hashable:
    """A stand-in equal to no other (a value that cannot be told by its form)."""
    return (OPAQUE, next(_opaque))


def plain(value: object) -> Hashable:
    """A hashable stand-in, equal for two values only if they render alike.

    The class is part of every form but plain str, int and list (so `1`, `1.0`, `True`, a safe
    string and its escaped twin all differ), dictionaries and sets keep their order (a template
    iterates them in it), and a value that cannot be told by its form gets a stand-in equal to
    nothing.
    """
    kind = type(value)
    if kind is str or kind is int or value is None or value is MISSING:
        return value  # str, int, None and MISSING hash as they are
    if kind is dict or kind is list or kind is tuple:
        form = written(value)
        if form is not None:
            return form
    if isinstance(value, AppendOnly):
        return (TYPED, AppendOnly, len(value), plain(value.newest))
    if kind is list:
        return tuple([plain(v) for v in cast(list[object], value)])
    if isinstance(value, str | int | float):
        return (TYPED, kind, value)
    if isinstance(value, Mapping):
        return (TYPED, kind, tuple([(plain(k), plain(v)) for k, v in value.items()]))
    if isinstance(value, tuple | range | set | frozenset | list):
        return (TYPED, kind, tuple([plain(v) for v in value]))
    if isinstance(value, models.Model):
        # A model handed over whole: every plain field (JSON fields are reached by their paths),
        # with its class (so 120 and 120.0, 1 and True stay apart).
        fields = model_fields(type(value))(value)
        try:
            hash(fields)
        except TypeError:
            return (TYPED, kind, repr(fields))
        return (TYPED, kind, fields, tuple(map(type, fields)))
    if callable(value):
        return (TYPED, kind, getattr(value, "__qualname__", repr(value)))
    written_by: object = kind.__repr__
    if written_by is object.__repr__:
        return opaque()  # its repr is its address: nothing to compare
    return (TYPED, kind, repr(value))


_model_fields: dict[type[models.Model], Callable[[models.Model], tuple[object, ...]]] = {}


def model_fields(kind: type[models.Model]) -> Callable[[models.Model], tuple[object, ...]]:
    """What reads a model's plain fields (all but JSON fields) as a tuple (made once a class)."""
    if kind not in _model_fields:
        names = [
            f.attname for f in kind._meta.concrete_fields if not isinstance(f, models.JSONField)
        ]
        getter = attrgetter(*names)  # one name gives its value, not a tuple
        _model_fields[kind] = getter if len(names) > 1 else lambda value: (getter(value),)
    return _model_fields[kind]
